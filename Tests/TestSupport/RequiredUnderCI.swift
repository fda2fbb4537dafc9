import Foundation
import Testing

/// Something a test needs from outside the repository — a program (headless Chromium), a
/// package from PyPI (Foxglove's MCAP reader), the real data in `../shared/data` — and how the
/// test behaves without it. On a developer's machine the test is skipped, saying what is
/// missing. Under CI (`CI=true`, as `.ci/run` is run) a skip would be a pass that checked
/// nothing, so the test runs and fails at `check()`, naming what is missing.
///
///     static let reader = RequiredUnderCI(missing: …)      // nil when it is there
///     @Test(reader.trait) func … { try Self.reader.check(); … }
public struct RequiredUnderCI: Sendable {
    /// Why the test cannot run its check here (nil: it can).
    public let missing: String?

    public init(missing: String?) { self.missing = missing }

    /// True when the environment says this is a CI run (`CI=true`).
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Runs the test when nothing is missing, or under CI; otherwise skips it with the reason.
    public var trait: ConditionTrait {
        .enabled(if: missing == nil || Self.isCI, Comment(rawValue: missing.map { "skipped: \($0)" } ?? ""))
    }

    /// First thing in the test's body: fails the test when something is missing (which only
    /// happens under CI, where the trait let it run).
    public func check() throws {
        if let missing { throw Missing(description: "required under CI=true, and missing: \(missing)") }
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }
}

/// `../shared/data` beside the repository: the project's real data (OSM extracts, real phone
/// exports; each folder has a README), not in git. A fresh clone's tests use the excerpts in
/// `Tests/Fixtures`; the few tests that read the whole data need this folder (README.md,
/// "Tests").
public enum SharedData {
    public static let folder = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// A test that reads `paths` (relative to `shared/data`).
    public static func required(_ paths: String...) -> RequiredUnderCI {
        let absent = paths.filter { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        return RequiredUnderCI(missing: absent.isEmpty ? nil : "\(absent.map { "../shared/data/\($0)" }.joined(separator: ", ")) beside the repository")
    }
}

/// `Tests/Fixtures/fuzz/TARGET/`: the inputs each fuzz target's reader must survive (findings of
/// the fuzzer and the bad-input corpora of `tools/make_fuzz_corpora.py`; docs/robustness.md).
public enum FuzzCorpus {
    public static let folder = packageRoot.appendingPathComponent("Tests/Fixtures/fuzz")

    /// The files of `TARGET/`, in name order. A missing or empty folder fails the test: a loop
    /// over nothing would pass having checked nothing.
    public static func files(_ target: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [URL] {
        let dir = folder.appendingPathComponent(target)
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
        try #require(!files.isEmpty, "no inputs in \(dir.path)", sourceLocation: sourceLocation)
        return files
    }
}
