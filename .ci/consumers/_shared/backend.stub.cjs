'use strict';
// Backend of the CommonJS smoke test while the package has no `hashscan-sms/testing` entry.
module.exports = { startBackend: require('./stub-server.cjs').startStub };
