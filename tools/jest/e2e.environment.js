// The end-to-end tier's environment: Node's, counting the tests and hooks of the file that failed
// so far, so a suite can show what its services said when a test failed (see failedTestCount in
// libs/testing).
const { TestEnvironment } = require('jest-environment-node');

class E2eEnvironment extends TestEnvironment {
  handleTestEvent(event) {
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') {
      this.global.__failedTestCount = (this.global.__failedTestCount ?? 0) + 1;
    }
  }
}

module.exports = E2eEnvironment;
