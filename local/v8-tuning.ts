/**
 * V8 settings of the local server, applied before anything else loads: this is among the first imports
 * of local/server.ts (and of the benchmark's bare server, so the two are compared like for like).
 *
 * Allocation-site pretenuring off. V8 learns, per allocation site, whether the objects it makes
 * tend to survive, and from then on allocates them straight in the old generation. Under load it
 * takes that decision for sites on pg's result path; the old objects then point at each request's
 * young rows, so every scavenge keeps and promotes them: about 0.7 MB per scavenge and a pause of
 * about 2 ms, against 0.1 MB and 0.9 ms without it (docs/decisions.md, docs/benchmarks.md).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
