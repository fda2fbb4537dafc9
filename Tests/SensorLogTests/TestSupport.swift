import Foundation
import POIARCore
@_exported import PoiarTestSupport
import Testing
@testable import SensorLog

/// Writes `text` to `name` in `folder` and returns its path.
@discardableResult
func write(_ text: String, to name: String, in folder: URL) throws -> String { try writeFile(text, to: name, in: folder).path }

/// Writes raw bytes to `name` in `folder` and returns its path.
@discardableResult
func write(bytes: [UInt8], to name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
}

/// A log with the header and the given data rows (one per line, LF endings).
func logText(_ rows: [String], metadata: [String] = ["# format: poiar-log/1"]) -> String {
    (metadata + [SensorLogReader.header] + rows).joined(separator: "\n") + "\n"
}

/// Reads every record of the log at `path`; throws the reader's first error.
func readAll(_ path: String, maxTimeGap: Double = SensorLogReader.defaultMaxTimeGap,
             onNotice: ((String) -> Void)? = nil) throws -> [LogRecord] {
    let reader = try SensorLogReader(path: path, maxTimeGap: maxTimeGap)
    reader.onNotice = onNotice
    var out: [LogRecord] = []
    while let r = try reader.nextRecord() { out.append(r) }
    return out
}

/// Reads the log at `path` to the end and returns the `InputError` it must raise, after
/// checking that the message names the file, the line and (when given) the field.
@discardableResult
func expectInputError(_ path: String, line: Int?, field: String? = nil, containing words: [String] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) -> InputError? {
    guard let error = inputError({ _ = try readAll(path) }) else {
        Issue.record("expected an InputError reading \(path)", sourceLocation: sourceLocation)
        return nil
    }
    let text = error.description
    #expect(error.location.file == path, sourceLocation: sourceLocation)
    #expect(text.hasPrefix(path), "\(text)", sourceLocation: sourceLocation)
    #expect(error.location.line == line, "\(text)", sourceLocation: sourceLocation)
    if let line {
        #expect(text.hasPrefix("\(path):\(line)"), "\(text)", sourceLocation: sourceLocation)
    }
    if let field {
        #expect(error.location.field == field, "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("(\(field))"), "\(text)", sourceLocation: sourceLocation)
    }
    for w in words {
        #expect(text.contains(w), "\"\(text)\" should mention \"\(w)\"", sourceLocation: sourceLocation)
    }
    return error
}

/// Runs a command-line tool and waits for it; returns its exit status.
@discardableResult
func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = arguments
    try p.run()
    p.waitUntilExit()
    return p.terminationStatus
}

/// The path of an installed tool (gzip lives in /usr/bin or /bin).
func toolPath(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
