import Foundation

/// Debian's Chromium, headless, for the tests that look at poiar's HTML as a person would: the
/// page's DOM after its scripts ran, its console, and a screenshot. Its profile and temporary
/// files go into the test run's temporary root.
public enum HeadlessChromium {
    /// The browser, or nil (the tests that need it are skipped, saying so, or fail under CI).
    public static let executable: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What the tests that load a page need.
    public static let required = RequiredUnderCI(missing: executable == nil
        ? "no headless Chromium (Debian's chromium package; scripts/test.sh installs it)" : nil)

    public struct Result {
        public var status: Int32
        public var stdout: String
        /// Chromium's log, with the page's console messages (`CONSOLE(line)] "…"`).
        public var log: String
        /// The page's console messages.
        public var console: [String] { log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init) }
    }

    /// Loads `url` in a `width`×`height` window at device scale 1, lets its scripts and images
    /// settle (5 s of virtual time), and with `screenshot` writes a PNG of the window, else
    /// prints the DOM.
    public static func load(_ url: URL, width: Int = 1400, height: Int = 1000, screenshot: URL? = nil) throws -> Result {
        try required.check()
        // Chromium puts a socket in its temporary folder, whose path must be short (a Unix
        // socket's is at most 107 bytes): a short-named folder in the system temp folder (the
        // test run's own under scripts/test.sh), removed when done.
        let system = FileManager.default.temporaryDirectory.path
        let base = system.utf8.count <= 40 ? system : "/tmp"
        var template = Array("\(base)/cr.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        let profile = URL(fileURLWithPath: String(cString: made))
        defer { cleanUp(profile) }
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                         "--no-first-run", "--disable-extensions", "--user-data-dir=\(profile.path)/profile",
                         "--window-size=\(width),\(height)", "--virtual-time-budget=5000",
                         "--enable-logging=stderr", "--v=0"]
        arguments.append(screenshot.map { "--screenshot=\($0.path)" } ?? "--dump-dom")
        arguments.append(url.absoluteString)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = profile.path
        environment["HOME"] = profile.path  // its caches, kept out of the real home
        let r = try runProcess(URL(fileURLWithPath: executable!), arguments, environment: environment)
        return Result(status: r.status, stdout: r.stdout, log: r.stderr)
    }

    /// The value of `data-NAME` on the page's root element in a dumped DOM.
    public static func rootData(_ dom: String, _ name: String) -> String? {
        guard let html = dom.range(of: "<html"), let end = dom[html.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = dom[html.upperBound..<end]
        guard let attribute = tag.range(of: " data-\(name)=\"") else { return nil }
        let rest = tag[attribute.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
