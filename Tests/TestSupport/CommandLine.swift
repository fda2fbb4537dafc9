import Foundation

/// The package's root folder (Tests/TestSupport/ → ../..).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
public let sampleLogs = packageRoot.appendingPathComponent("SampleLogs")

/// The `poiar` executable built beside the test bundle.
public let poiarExecutable: URL = {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("poiar"),
        Bundle.main.bundleURL.appendingPathComponent("poiar"),
        Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("poiar"),
        packageRoot.appendingPathComponent(".build/debug/poiar"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
}()

public struct RunResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs `poiar` with arguments in `cwd`, capturing its output. `environment` replaces the
/// process's own (nil: this one's, with TMPDIR inside the test run's temporary root, so that
/// poiar's own temporary files — a POI cache for a read-only source — are removed with it).
public func runPoiar(_ arguments: [String], cwd: URL = packageRoot, environment: [String: String]? = nil) throws -> RunResult {
    var inherited = ProcessInfo.processInfo.environment
    inherited["TMPDIR"] = TestTemporaryRoot.url.path
    return try runProcess(poiarExecutable, arguments, cwd: cwd, environment: environment ?? inherited)
}

/// Runs a program, capturing its standard output and error (read while it runs, so a full
/// pipe never blocks it).
public func runProcess(_ executable: URL, _ arguments: [String], cwd: URL? = nil, environment: [String: String]) throws -> RunResult {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    if let cwd { p.currentDirectoryURL = cwd }
    p.environment = environment
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    return RunResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self))
}


/// Copies the sample walk's side files (camera, POIs) into `dir` and writes `log` there.
public func writeLog(_ log: String, named name: String = "log.csv", in dir: URL) throws -> URL {
    for f in ["walk.camera.json", "helsinki-esplanadi.osm"] {
        let dst = dir.appendingPathComponent(f)
        if !FileManager.default.fileExists(atPath: dst.path) {
            try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent(f), to: dst)
        }
    }
    let url = dir.appendingPathComponent(name)
    try log.write(to: url, atomically: true, encoding: .utf8)
    return url
}

/// The first `seconds` of the sample walk (header, metadata and rows with time < seconds).
public func walkPrefix(seconds: Double) throws -> String {
    let text = try String(contentsOf: sampleLogs.appendingPathComponent("walk.csv"), encoding: .utf8)
    var lines: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.first == "#" || line.hasPrefix("time,") || line.isEmpty { lines.append(line); continue }
        if let comma = line.firstIndex(of: ","), let t = Double(line[..<comma]), t >= seconds { continue }
        lines.append(line)
    }
    return lines.joined(separator: "\n")
}

/// Width and height from a PNG's IHDR.
public func pngSize(_ url: URL) throws -> (Int, Int)? {
    let d = try Data(contentsOf: url)
    guard d.count > 24, d.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
    func be32(_ o: Int) -> Int { d[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
}

/// Files in `dir` that look half-written (temporary names).
public func leftoverTemporaries(in dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".") || $0.hasSuffix(".tmp") }
}
