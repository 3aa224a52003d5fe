import Hummingbird
import NIOCore

/// The request context of a listener: Hummingbird's, and the connection the request came
/// on (feeds end when it closes; the access log names its peer).
struct ListenerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
