import Foundation

/// Python packages from PyPI for the tests that check poiar's output with reference readers
/// (Foxglove's `mcap`): one virtual environment, `.build/test-venv` (under .build, so it is
/// never committed and a clean clone makes it anew), made once per test process and kept
/// between runs.
public enum PythonTools {
    /// The venv's python with Foxglove's MCAP reader, or why there is none (no python3 or
    /// python3-venv, or PyPI unreachable: tests that need it are skipped with this reason, or
    /// fail under CI; scripts/test.sh installs python3-venv).
    public static let mcapReader: Result<URL, SkipReason> = venv(packages: ["mcap==1.6.0"], importing: "mcap")

    /// What the tests that read poiar's MCAP files back need.
    public static let mcapReaderRequired: RequiredUnderCI = {
        if case .failure(let reason) = mcapReader { return RequiredUnderCI(missing: "Foxglove's MCAP reader: \(reason)") }
        return RequiredUnderCI(missing: nil)
    }()

    public struct SkipReason: Error, CustomStringConvertible {
        public var description: String
    }

    /// A venv with `packages` installed (pip, quietly; nothing when `importing` already imports).
    static func venv(packages: [String], importing module: String) -> Result<URL, SkipReason> {
        let dir = packageRoot.appendingPathComponent(".build/test-venv")
        let python = dir.appendingPathComponent("bin/python")
        if !FileManager.default.isExecutableFile(atPath: python.path) {
            let made = run("/usr/bin/env", ["python3", "-m", "venv", dir.path])
            guard made.status == 0 else { return .failure(SkipReason(description: "python3 -m venv failed: \(made.output)")) }
        }
        if run(python.path, ["-c", "import \(module)"]).status == 0 { return .success(python) }
        let pip = run(python.path, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--timeout", "30"] + packages)
        guard pip.status == 0 else {
            return .failure(SkipReason(description: "cannot install \(packages.joined(separator: " ")) from PyPI (unreachable?): "
                                       + (pip.output.split(separator: "\n").last.map(String.init) ?? "pip failed")))
        }
        return .success(python)
    }

    /// Runs a command; its standard output and error come apart (`RunResult`), `output` has both.
    public static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String, stdout: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = TestTemporaryRoot.url.path  // pip's build folders go with the test run's
        guard let r = try? runProcess(URL(fileURLWithPath: executable), arguments, environment: environment) else {
            return (-1, "cannot run \(executable)", "")
        }
        return (r.status, r.stdout + r.stderr, r.stdout)
    }
}
