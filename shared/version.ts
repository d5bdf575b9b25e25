/** The published contract version (spec: Versioning). Dated changes are in docs/changelog.md. */
export const API_VERSION = '1.0.0';
