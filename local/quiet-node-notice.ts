/**
 * The first import of every local entry point. The AWS SDK prints a nine-line notice in every
 * Node 20 process that its releases after January 2027 need Node 22; the deployed functions run
 * on Node 22, and locally the notice says nothing a developer can act on. The SDK's own switch
 * turns it off; a value set outside is kept.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
