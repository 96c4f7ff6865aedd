import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stops URLSession from following redirects for the webhook. Followed, a 301/302 turns the POST
/// into a GET without the body, and the 200 at the end would count as delivered although the
/// receiver never saw the alert; unfollowed, the 3xx is a permanent failure that names the URL to fix.
final class WebhookRedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
