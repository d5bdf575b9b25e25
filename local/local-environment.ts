/**
 * The first import of every local entry point: settings of the libraries for a developer's
 * machine, applied before any of them loads. A value set outside is kept.
 *
 * - The AWS SDK prints a nine-line notice in every Node 20 process that its releases after
 *   January 2027 need Node 22; the deployed functions run on Node 22, and locally the notice says
 *   nothing a developer can act on. The SDK's own switch turns it off.
 * - Powertools Metrics writes an EMF document to stdout on every request, for CloudWatch to read.
 *   Locally nothing reads it: it would bury the log lines and cost each request its serialization.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
