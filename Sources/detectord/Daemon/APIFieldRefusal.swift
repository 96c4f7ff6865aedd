import FallDetect
import Foundation
import Hummingbird

/// A request body without what its route needs, or a change the store refused: answered with the
/// message and the field it names, 400 (500 when the store could not be read or written), in the
/// same shape on every route so the page can mark the field.
struct APIFieldRefusal: HTTPResponseError {
    let error: FallDetectError

    init(_ error: FallDetectError) { self.error = error }

    var status: HTTPResponse.Status { error.code == .io ? .internalServerError : .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response { try response() }

    func response() throws -> Response {
        try APIRoutes.json(["ok": false, "error": error.message, "field": error.field ?? NSNull()], status: status)
    }
}
