import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import POIARCore

/// An HTTP response, whole.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    public var body: Data
}

/// A small blocking HTTP(S) client over Foundation's `URLSession`, for the POI web sources.
///
/// - Each attempt has a timeout (`timeout`, seconds, for the whole exchange).
/// - `429 Too Many Requests` and `5xx` answers, and timeouts or dropped connections, are
///   retried up to `maxAttempts` attempts in all, waiting `backoff`·2ⁿ⁻¹ s before the n-th
///   retry, or what the answer's `Retry-After` says (seconds or an HTTP date; at most
///   `maxRetryAfter` s).
/// - Any other status ≥ 300, or a transport failure, is an `InputError` naming the URL with
///   its secrets redacted (`redacting(_:)`), the status and the start of the body.
/// - A body larger than `maxResponseBytes` is refused, not retried: at once when the answer's
///   `Content-Length` says so, else as soon as that many bytes have arrived (the transfer is
///   cancelled), so a runaway answer never fills the memory.
public struct HTTPClient: Sendable {
    public var timeout: Double = 60
    /// The largest response body accepted, bytes (64 MiB: an Overpass answer for a few km²
    /// of city with every category is a few MB).
    public var maxResponseBytes = 64 << 20
    public var maxAttempts = 4
    public var backoff: Double = 1
    public var maxRetryAfter: Double = 120
    /// Query parameters whose values never appear in messages (the API key).
    public var secretParameters: Set<String> = ["key"]
    /// Strings (the API key itself) replaced by `REDACTED` wherever they would appear in a
    /// message, should a server echo them.
    public var secretValues: [String] = []
    /// Told about each retry ("HTTP 503 from URL; retrying in 2 s (attempt 2 of 4)").
    public var notice: (@Sendable (String) -> Void)?
    public var userAgent = "poiar/0.1 (POI augmented reality; https://www.openstreetmap.org/copyright)"

    public init() {}

    /// Sends `request`, retrying as described; returns a 2xx response.
    public func send(_ request: URLRequest) throws -> HTTPResponse {
        do {
            return try sendUnscrubbed(request)
        } catch let error as InputError {
            throw InputError(file: scrub(error.location.file), scrub(error.message))
        }
    }

    /// `text` with every `secretValues` string replaced by `REDACTED`.
    public func scrub(_ text: String) -> String {
        var text = text
        for secret in secretValues where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "REDACTED")
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                text = text.replacingOccurrences(of: encoded, with: "REDACTED")
            }
        }
        return text
    }

    private func sendUnscrubbed(_ request: URLRequest) throws -> HTTPResponse {
        let shownURL = redacting(request.url?.absoluteString ?? "(no URL)")
        var attempt = 1
        while true {
            let outcome = perform(request)
            let retryDelay: Double
            let what: String
            switch outcome {
            case .success(let response):
                if (200..<300).contains(response.status) { return response }
                let statusText = "HTTP \(response.status) \(HTTPURLResponse.localizedString(forStatusCode: response.status))"
                guard response.status == 429 || (500..<600).contains(response.status) else {
                    throw InputError(file: shownURL, "\(statusText): \(Self.excerpt(response.body))")
                }
                what = statusText
                if let after = response.headers["retry-after"].flatMap(Self.retryAfterSeconds) {
                    retryDelay = min(max(after, 0), maxRetryAfter)
                } else {
                    retryDelay = backoff * pow(2, Double(attempt - 1))
                }
                if attempt >= maxAttempts {
                    throw InputError(file: shownURL, "\(statusText) after \(attempt) attempt(s): \(Self.excerpt(response.body))")
                }
            case .failure(let failure):
                guard failure.retryable else { throw InputError(file: shownURL, failure.message) }
                if attempt >= maxAttempts {
                    throw InputError(file: shownURL, "\(failure.message) (\(attempt) attempt(s), timeout \(Self.seconds(timeout)) s each)")
                }
                what = failure.message
                retryDelay = backoff * pow(2, Double(attempt - 1))
            }
            attempt += 1
            notice?(scrub("\(shownURL): \(what); retrying in \(Self.seconds(retryDelay)) s (attempt \(attempt) of \(maxAttempts))"))
            if retryDelay > 0 { Thread.sleep(forTimeInterval: retryDelay) }
        }
    }

    /// `url` with the values of `secretParameters` replaced by `REDACTED`.
    public func redacting(_ url: String) -> String {
        guard var components = URLComponents(string: url), let items = components.queryItems else { return url }
        components.queryItems = items.map { item in
            secretParameters.contains(item.name) ? URLQueryItem(name: item.name, value: "REDACTED") : item
        }
        return components.string ?? url
    }

    // MARK: Private

    private struct Failure: Error {
        var message: String
        var retryable: Bool
    }

    /// One attempt.
    private func perform(_ request: URLRequest) -> Result<HTTPResponse, Failure> {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        var request = request
        request.timeoutInterval = timeout
        if request.value(forHTTPHeaderField: "User-Agent") == nil {
            request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        }
        let receiver = Receiver(limit: maxResponseBytes)
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        task.resume()
        // URLSession enforces the timeout; this is a backstop should it not fire.
        if receiver.done.wait(timeout: .now() + timeout + 5) == .timedOut {
            task.cancel()
            return .failure(Failure(message: "timed out after \(Self.seconds(timeout)) s", retryable: true))
        }
        let (data, response, error, oversize) = receiver.result()
        if let oversize {
            return .failure(Failure(message: "the response is larger than the \(Self.byteCount(maxResponseBytes)) limit (\(oversize)); "
                                    + "ask for a smaller area or fewer categories", retryable: false))
        }
        if let error {
            let nsError = error as NSError
            let code = URLError.Code(rawValue: nsError.code)
            switch code {
            case .timedOut:
                return .failure(Failure(message: "timed out after \(Self.seconds(timeout)) s", retryable: true))
            case .networkConnectionLost:
                return .failure(Failure(message: "the connection was lost", retryable: true))
            case .cannotConnectToHost:
                return .failure(Failure(message: "cannot connect to the server (connection refused)", retryable: false))
            case .cannotFindHost, .dnsLookupFailed:
                return .failure(Failure(message: "cannot find the server (DNS lookup failed)", retryable: false))
            default:
                return .failure(Failure(message: "request failed: \(redacting(nsError.localizedDescription))", retryable: false))
            }
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(Failure(message: "no HTTP response", retryable: false))
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, body: data))
    }

    /// The session's delegate: collects the body up to `limit` bytes and cancels the transfer
    /// beyond it. Called on the session's queue; read once `done` is signalled.
    private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let limit: Int
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var data = Data()
        private var response: URLResponse?
        private var error: (any Error)?
        /// Why the body was refused as too large ("Content-Length: N", "more than N bytes").
        private var oversize: String?

        init(limit: Int) { self.limit = limit }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            lock.lock()
            self.response = response
            let declared = response.expectedContentLength
            if declared > Int64(limit) { oversize = "Content-Length: \(declared) bytes" }
            let refuse = oversize != nil
            lock.unlock()
            completionHandler(refuse ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            var cancel = false
            if oversize == nil {
                if self.data.count + data.count > limit {
                    oversize = "more than \(limit) bytes received"
                    self.data = Data()
                    cancel = true
                } else {
                    self.data.append(data)
                }
            }
            lock.unlock()
            if cancel { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.lock()
            self.error = error
            if response == nil { response = task.response }
            lock.unlock()
            done.signal()
        }

        func result() -> (Data, URLResponse?, (any Error)?, String?) {
            lock.lock(); defer { lock.unlock() }
            return (data, response, error, oversize)
        }
    }

    /// `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func retryAfterSeconds(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = formatter.date(from: text) { return date.timeIntervalSinceNow }
        return nil
    }

    /// The start of a body, on one line, for error messages.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return "(empty body)" }
        return body.count > 300 ? text + "…" : text
    }

    /// "64 MiB", "1000 bytes".
    static func byteCount(_ n: Int) -> String {
        n >= 1 << 20 && n % (1 << 20) == 0 ? "\(n >> 20) MiB" : "\(n) bytes"
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(format: "%.2g", s)
    }
}
