import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (a free port), for testing `HTTPClient` and
/// `POIFetcher` without any network: POSIX sockets, one thread accepting and one thread per
/// connection, minimal request parsing, `Connection: close` on every answer.
///
/// Each path (without its query) answers from a list of canned responses, one per request, the
/// last repeating; an unknown path gets 404. Every request is recorded.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body: Data
        /// Seconds to wait before answering (to provoke client timeouts).
        var delay: Double = 0
        /// Send `Content-Length` (false: the body ends when the connection closes, as HTTP/1.1
        /// allows, so the client cannot know its size in advance).
        var sendsLength = true

        static func json(_ text: String, status: Int = 200) -> Response {
            Response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }

        static func file(_ url: URL, status: Int = 200) throws -> Response {
            Response(status: status, headers: ["Content-Type": "application/json"], body: try Data(contentsOf: url))
        }
    }

    struct Request: Sendable {
        var method: String
        /// The request target: path and query.
        var target: String
        var headers: [String: String]
        var body: Data

        var path: String { String(target.prefix { $0 != "?" }) }
        var queryItems: [String: String] {
            var items: [String: String] = [:]
            for item in URLComponents(string: "http://x" + target)?.queryItems ?? [] { items[item.name] = item.value ?? "" }
            return items
        }
        /// An `application/x-www-form-urlencoded` body's fields.
        var formFields: [String: String] {
            var fields: [String: String] = [:]
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let decode = { (s: String) in s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? s }
                fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
            }
            return fields
        }
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var routes: [String: [Response]] = [:]
    private var served: [String: Int] = [:]
    private var recorded: [Request] = []

    init() throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        let socket = listener
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(socket, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return  // closed by stop()
                }
                Thread.detachNewThread { [self] in self.serve(connection) }
            }
        }
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Answers requests for `path` with `responses` in turn (the last one repeats).
    func route(_ path: String, _ responses: [Response]) {
        lock.lock(); defer { lock.unlock() }
        routes[path] = responses
        served[path] = 0
    }

    var requests: [Request] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    private var stopped = false
    func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    // MARK: Connections

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        let response: Response
        lock.lock()
        recorded.append(request)
        if let list = routes[request.path], !list.isEmpty {
            let n = served[request.path, default: 0]
            response = list[min(n, list.count - 1)]
            served[request.path] = n + 1
        } else {
            response = .json(#"{"error": "no such path"}"#, status: 404)
        }
        lock.unlock()
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        var head = "HTTP/1.1 \(response.status) \(HTTPURLResponseReason.text(response.status))\r\n"
        var headers = response.headers
        if response.sendsLength { headers["Content-Length"] = String(response.body.count) }
        headers["Connection"] = "close"
        for (key, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(key): \(value)\r\n" }
        head += "\r\n"
        send(connection, Data(head.utf8) + response.body)
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 8192)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let n = recv(connection, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
            headerEnd = buffer.range(of: separator)
            if buffer.count > 1 << 20 { return nil }
        }
        let head = String(decoding: buffer[..<headerEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd!.upperBound...])
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < length {
            let n = recv(connection, &chunk, chunk.count, 0)
            if n <= 0 { break }
            body.append(contentsOf: chunk[0..<n])
        }
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private func send(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that gave up (timed out) must not kill the test with SIGPIPE.
                let n = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

enum HTTPURLResponseReason {
    static func text(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 404: return "Not Found"
        case 403: return "Forbidden"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
