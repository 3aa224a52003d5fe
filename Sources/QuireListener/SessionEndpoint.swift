import Foundation
import Hummingbird
import Quire
import QuireSync

/// CouchDB's `/_session`: `POST` logs in (a form, `name=…&password=…`, or JSON
/// `{"name", "password"}`) and sets an HttpOnly `AuthSession` cookie that later requests
/// may send instead of Basic credentials; `GET` says who the request is authenticated as
/// (`userCtx`); `DELETE` logs out.
///
/// A listener without an authenticator lets every request in, so every login succeeds and
/// `GET` reports CouchDB's "admin party" (no name, the `_admin` role).
struct SessionEndpoint: Sendable {
    let authenticator: ListenerPasswordAuthenticator?
    let sessions: ListenerSessions
    /// Whether the cookie is only for HTTPS (`Secure`).
    let secure: Bool

    /// How the request was authenticated, for `GET`'s `info.authenticated`.
    enum Credentials: Sendable {
        case none
        case basic(String)
        case cookie(String)

        var user: String? {
            switch self {
            case .none: return nil
            case .basic(let user), .cookie(let user): return user
            }
        }
    }

    func respond(method: HTTPRequest.Method, headers: HTTPFields, body: [UInt8], credentials: Credentials) throws
        -> Response
    {
        switch method {
        case .get, .head: return information(credentials)
        case .post: return try logIn(headers: headers, body: body)
        case .delete:
            if let token = ListenerSessions.token(in: headers[values: .cookie]) { sessions.close(token: token) }
            return JSONResponse.make(.ok, ["ok": true], headers: [.setCookie: cookie(value: "", maxAge: 0)])
        default: throw HTTPFailure.methodNotAllowed([.get, .head, .post, .delete])
        }
    }

    private func information(_ credentials: Credentials) -> Response {
        let handlers: JSONValue = ["cookie", "default"]
        var info: [String: JSONValue] = ["authentication_handlers": handlers]
        let context: JSONValue
        switch credentials {
        case .cookie(let user):
            info["authenticated"] = "cookie"
            context = ["name": .string(user), "roles": []]
        case .basic(let user):
            info["authenticated"] = "default"
            context = ["name": .string(user), "roles": []]
        case .none:
            context = authenticator == nil ? ["name": .null, "roles": ["_admin"]] : ["name": .null, "roles": []]
        }
        return JSONResponse.make(.ok, ["ok": true, "userCtx": context, "info": .object(info)])
    }

    private func logIn(headers: HTTPFields, body: [UInt8]) throws -> Response {
        let (name, password) = try SessionEndpoint.credentials(headers: headers, body: body)
        if let authenticator, !authenticator.authenticate(username: name, password: password) {
            // No WWW-Authenticate: a browser page logging in must not get the Basic dialog.
            throw HTTPFailure(status: .unauthorized, error: "unauthorized", reason: "Name or password is incorrect.")
        }
        let token = sessions.open(user: name)
        let roles: JSONValue = authenticator == nil ? ["_admin"] : []
        return JSONResponse.make(
            .ok, ["ok": true, "name": .string(name), "roles": roles],
            headers: [.setCookie: cookie(value: token, maxAge: nil)])
    }

    /// The `Set-Cookie` value for `value` (an expired one with `maxAge` 0).
    private func cookie(value: String, maxAge: Int?) -> String {
        var parts = ["\(ListenerSessions.cookieName)=\(value)", "Version=1", "Path=/", "HttpOnly", "SameSite=Lax"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// The name and password of a login body: a form or a JSON object, the name as `name` or,
    /// as CouchDB also reads it, `username` (IBM's Cloudant SDK sends that); 400 when either is
    /// missing or the body is neither.
    static func credentials(headers: HTTPFields, body: [UInt8]) throws -> (String, String) {
        let type = headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        var name: String?
        var password: String?
        if type == "application/x-www-form-urlencoded" {
            let form = try QueryParameters(String(decoding: body, as: UTF8.self))
            (name, password) = (form["name"] ?? form["username"], form["password"])
        } else if type == "application/json" {
            let json: JSONValue
            do {
                json = try WireJSON.parse(body, exactIntegers: true)
            } catch let error as QuireError {
                throw HTTPFailure.badRequest(error.message)
            }
            (name, password) = (
                json["name"]?.stringValue ?? json["username"]?.stringValue, json["password"]?.stringValue
            )
        } else {
            throw HTTPFailure(
                status: .unsupportedMediaType, error: "bad_content_type",
                reason: "Log in with application/x-www-form-urlencoded or application/json.")
        }
        guard let name, let password else {
            throw HTTPFailure.badRequest("A login needs a name and a password.")
        }
        return (name, password)
    }
}
