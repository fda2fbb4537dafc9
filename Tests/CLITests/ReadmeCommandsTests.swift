import Foundation
import Testing

/// The `poiar` commands of README.md's code blocks, as a new user types them: from a fresh copy
/// of the repository (its tracked files only: no POI cache, no Output/ of an earlier run), with
/// `poiar` on PATH, one after the other in the README's order (the report reads the replay
/// before it; the merge, the shards). A command that names a file the copy lacks, or a
/// placeholder, fails here. The same for every page of docs/, each from a copy of its own, with
/// `POIAR_CHECK_DOCS` (`scripts/check_docs.sh`).
@Suite struct ReadmeCommandsTests {
    /// The shell lines of a page's code blocks that run poiar (a line ending in `\` joined to
    /// the next; a `$ ` prompt dropped, the lines after it being the command's output), and
    /// `python3 tools/…` lines that make a command's input. Blocks fenced with a language
    /// (```text for a synopsis, ```bash for a script run elsewhere, ```yaml, ```json) are
    /// shown, not typed; the scripts (`bash scripts/…`), which install system packages, are
    /// left out.
    static func poiarCommands(inMarkdown text: String) -> [String] {
        var commands: [String] = []
        var inBlock = false, typed = false
        var pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                if !inBlock { typed = ["", "console"].contains(line.dropFirst(3).trimmingCharacters(in: .whitespaces)) }
                inBlock.toggle(); pending = ""; continue
            }
            guard inBlock, typed else { continue }
            if line.hasPrefix("$ ") { line.removeFirst(2) }
            if line.hasSuffix("\\") { pending += line.dropLast() + " "; continue }
            let command = pending + line
            pending = ""
            guard !command.hasPrefix("bash "),
                  command.hasPrefix("python3 tools/") || command.range(of: #"(^|[;&(] *|do +|^\S+=\S* +)poiar "#, options: .regularExpression) != nil
            else { continue }
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
            $ poiar pois show 1 --db a.osm
            poiar: a notice, not a command
            python3 tools/make_lund_log.py --out Output/lund
            ```
            ```text
            poiar replay LOG... [--filter CATS]
            ```
            ```bash
            exec poiar replay /shared/logs/walk.csv
            ```
            """
        #expect(Self.poiarCommands(inMarkdown: text) == [
            "poiar replay a.csv --out /x  --jobs 2",
            "for i in 0 1; do poiar replay a.csv --shard $i/2 & done; wait",
            "poiar pois show 1 --db a.osm",
            "python3 tools/make_lund_log.py --out Output/lund",
        ])
    }

    @Test func everyReadmeCommandRunsAsWritten() throws {
        let commands = try Self.poiarCommands(inMarkdown: String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8))
        #expect(commands.count >= 10, "README.md's code blocks hold \(commands.count) poiar commands")
        for failure in try Self.run(commands, page: "README.md", poiar: poiarExecutable) { Issue.record(Comment(rawValue: failure)) }
    }

    /// The poiar executable for the docs pages' commands: `POIAR_CHECK_DOCS=PATH` (e.g. the
    /// release build, as `scripts/check_docs.sh` gives it), or `1` for the tests' own. Unset,
    /// the check is not run: the pages' commands take minutes (`scripts/check_docs.sh`).
    static let docsExecutable: URL? = ProcessInfo.processInfo.environment["POIAR_CHECK_DOCS"].map {
        $0 == "1" ? poiarExecutable : URL(fileURLWithPath: $0)
    }

    @Test(.enabled(if: docsExecutable != nil, "skipped: POIAR_CHECK_DOCS unset (scripts/check_docs.sh runs it)"))
    func everyDocsCommandRunsAsWritten() throws {
        let docs = packageRoot.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        var run = 0
        for page in pages {
            let commands = try Self.poiarCommands(inMarkdown: String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8))
            guard !commands.isEmpty else { continue }
            run += commands.count
            for failure in try Self.run(commands, page: "docs/" + page, poiar: Self.docsExecutable!) { Issue.record(Comment(rawValue: failure)) }
        }
        #expect(run >= 50, "docs/*.md's code blocks hold \(run) poiar commands")
    }

    /// Runs `commands` one after the other from a fresh copy of the repository, `poiar` on PATH
    /// and `../shared` beside it (the real data, when this repository has it there), and says
    /// which failed. A command that needs the network (`pois fetch`, `--fetch`) is not run, nor
    /// one reading `../shared/data` where there is none: each is said on stdout.
    static func run(_ commands: [String], page: String, poiar: URL) throws -> [String] {
        let root = try makeTempDir("commands")
        defer { cleanUp(root) }
        let clone = root.appendingPathComponent("poiar"), bin = root.appendingPathComponent("bin")
        try Self.freshCopy(into: clone)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("poiar"), withDestinationURL: poiar)
        // The tools (`python3 tools/…`) run the release build, as `scripts/build-release.sh` leaves it.
        let release = clone.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: release.appendingPathComponent("poiar"), withDestinationURL: poiar)
        let shared = SharedData.folder.deletingLastPathComponent()
        let hasShared = FileManager.default.fileExists(atPath: SharedData.folder.path)
        if hasShared { try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("shared"), withDestinationURL: shared) }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["TMPDIR"] = TestTemporaryRoot.url.path
        var failures: [String] = []
        for command in commands {
            if command.contains("pois fetch") || command.contains("--fetch") {
                print("\(page): not run (needs the network): \(command)"); continue
            }
            if command.contains("../shared/") && !hasShared {
                print("\(page): not run (no ../shared/data beside the repository): \(command)"); continue
            }
            let r = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", command], cwd: clone, environment: environment)
            if r.status != 0 || r.stderr.contains("error:") {
                failures.append("\(page): command failed (status \(r.status)): \(command)\n\(r.stderr)")
            }
        }
        return failures
    }
}
