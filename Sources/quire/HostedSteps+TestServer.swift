import QuireConformance
import QuireTestServer

// `quire testserver` runs the extension's hosted steps with the conformance runner's own engine.
extension HostedSteps: TestServerStepHost {}
