import Foundation
import Testing

/// The `poiar` commands of README.md's code blocks, as a new user types them: from a fresh copy
/// of the repository (its tracked files only: no POI cache, no Output/ of an earlier run), with
/// `poiar` on PATH, one after the other in the README's order (the report reads the replay
/// before it; the merge, the shards). A command that names a file the copy lacks, or a
/// placeholder, fails here.
@Suite struct ReadmeCommandsTests {
    /// The shell lines of README.md's code blocks that run poiar (a line ending in `\` joined to
    /// the next); the scripts (`bash scripts/…`), which install system packages, are left out.
    static func poiarCommands(inMarkdown text: String) -> [String] {
        var commands: [String] = []
        var inBlock = false
        var pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inBlock.toggle(); pending = ""; continue }
            guard inBlock else { continue }
            if line.hasSuffix("\\") { pending += line.dropLast() + " "; continue }
            let command = pending + line
            pending = ""
            guard !command.hasPrefix("bash "), command.range(of: #"(^|[;&(] *|do +)poiar "#, options: .regularExpression) != nil else { continue }
            commands.append(command)
        }
        return commands
    }

    /// A copy of the repository's tracked files, as `git clone` would give.
    static func freshCopy(into dir: URL) throws {
        let listed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", packageRoot.path, "ls-files", "-z"],
                                    environment: ProcessInfo.processInfo.environment)
        try #require(listed.status == 0, "git ls-files: \(listed.stderr)")
        for path in listed.stdout.split(separator: "\0").map(String.init) {
            let source = packageRoot.appendingPathComponent(path), target = dir.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }  // deleted, not yet committed
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
        }
    }

    @Test func commandsAreFoundInCodeBlocksOnly() {
        let text = """
            poiar replay outside.csv
            ```
            bash scripts/demo.sh
            poiar replay a.csv --out /x \\
              --jobs 2
            for i in 0 1; do poiar replay a.csv --shard $i/2 & done; wait
            ```
            """
        #expect(Self.poiarCommands(inMarkdown: text) == [
            "poiar replay a.csv --out /x  --jobs 2",
            "for i in 0 1; do poiar replay a.csv --shard $i/2 & done; wait",
        ])
    }

    @Test func everyReadmeCommandRunsAsWritten() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.poiarCommands(inMarkdown: readme)
        #expect(commands.count >= 10, "README.md's code blocks hold \(commands.count) poiar commands")
        let root = try makeTempDir("readme")
        defer { cleanUp(root) }
        let clone = root.appendingPathComponent("poiar"), bin = root.appendingPathComponent("bin")
        try Self.freshCopy(into: clone)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("poiar"), withDestinationURL: poiarExecutable)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["TMPDIR"] = TestTemporaryRoot.url.path
        for command in commands {
            let r = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", command], cwd: clone, environment: environment)
            #expect(r.status == 0, "README command failed: \(command)\n\(r.stderr)")
            #expect(!r.stderr.contains("error:"), "README command printed an error: \(command)\n\(r.stderr)")
        }
    }
}
