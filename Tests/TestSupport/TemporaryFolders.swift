import Foundation

/// Temporary folders for the tests, all inside one folder per test process that is removed
/// when the process exits, so a test run leaves nothing in the system temp folder even when
/// a test fails half-way or forgets its own clean-up. `swift test` runs the test bundle in
/// two processes (XCTest, then Swift Testing); each has its own root.
public enum TestTemporaryRoot {
    /// `poiar-tests-<pid>-<uuid>` in the system temp folder, made on first use.
    public static let url: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("poiar-tests-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        removalPath = url.path
        atexit { if let path = TestTemporaryRoot.removalPath { try? FileManager.default.removeItem(atPath: path) } }
        return url
    }()

    /// Read by the exit handler (a C function pointer cannot capture `url`).
    nonisolated(unsafe) static var removalPath: String?
}

/// A fresh, empty folder named `<name>-<uuid>` inside the process's temporary root.
public func makeTempDir(_ name: String = "poiar-test") throws -> URL {
    let url = TestTemporaryRoot.url.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh, empty folder for one test (`makeTempDir`); `cleanUp` removes it, and the run's
/// root goes at exit whatever happens.
public func makeTemporaryFolder() throws -> URL { try makeTempDir() }

/// Removes a test's folder.
public func cleanUp(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
}

/// Writes `text` to `name` in `folder` and returns its URL.
@discardableResult
public func writeFile(_ text: String, to name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}
