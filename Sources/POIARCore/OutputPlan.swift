import Foundation

/// The one gate every command's outputs pass before any work: what it will write (files, and
/// folders with the names written in them) and what it reads, checked together. An output is
/// refused when it is also an input (the same file by device and inode, or the same resolved
/// path for one not written yet), when it is a device, FIFO or socket (the write-then-rename of
/// `AtomicFile` would replace it with a plain file, even as root), a folder where a file is
/// written (or a file where a folder is), given for two outputs, or cannot be written (a
/// read-only or immutable file, a folder without write permission). Each refusal is one
/// `InputError` naming the output and the option that named it.
public struct OutputPlan: Sendable {
    struct Output: Sendable {
        var path: String
        var option: String
        /// nil: a file; else a folder, with which names in it are written.
        var folderNames: (@Sendable (String) -> Bool)?
        /// A folder's files of fixed names (the manifest, the video, …) and the options asking
        /// for them: each checked as a file output.
        var files: [(name: String, option: String)] = []
    }

    struct Input: Sendable {
        var path: String
        var what: String
    }

    private var outputs: [Output] = []
    private var inputs: [Input] = []

    public init() {}

    /// A file written (atomically) at `path`, named by `option` ("--out", "--mcap").
    public mutating func writes(_ path: String, option: String) {
        outputs.append(Output(path: path, option: option))
    }

    /// A folder written into (created if missing), `names` telling which names in it may be
    /// written (frames, manifest, map, …), `files` those this run writes, with the options that
    /// ask for them.
    public mutating func writesFolder(_ path: String, option: String, files: [(name: String, option: String)] = [],
                                      names: @escaping @Sendable (String) -> Bool) {
        outputs.append(Output(path: path, option: option, folderNames: names, files: files))
    }

    /// A file or folder read (`what`: "the log", "the POI source", …); a folder's files are
    /// all inputs. Nil is nothing.
    public mutating func reads(_ path: String?, as what: String) {
        if let path { inputs.append(Input(path: path, what: what)) }
    }

    /// Throws the first problem found, outputs in the order given; when all is well, removes
    /// the temporaries killed runs left for the file outputs.
    public func check() throws {
        var seen: [String: String] = [:]  // resolved path → option
        for output in outputs {
            let resolved = OutputPlan.resolved(output.path)
            if let other = seen[resolved] {
                throw InputError(file: output.path, "given for both \(other) and \(output.option): each output needs a path of its own")
            }
            seen[resolved] = output.option
            if output.folderNames != nil { try checkFolder(output) } else { try checkFile(output.path, option: output.option) }
            for file in output.files {
                try checkFile(URL(fileURLWithPath: output.path).appendingPathComponent(file.name).path, option: file.option)
            }
        }
        // A file output inside a folder output, under a name the folder's writer uses.
        for output in outputs where output.folderNames == nil {
            let url = URL(fileURLWithPath: OutputPlan.resolved(output.path))
            for folder in outputs where folder.folderNames?(url.lastPathComponent) == true
                && OutputPlan.resolved(folder.path) == url.deletingLastPathComponent().path {
                throw InputError(file: output.path, "\(output.option) names a file \(folder.option) \(folder.path) writes: give another path")
            }
        }
        for input in inputs {
            for file in OutputPlan.files(of: input.path) {
                if let output = outputs.first(where: { $0.covers(file) }) {
                    let name = output.folderNames == nil ? output.path : URL(fileURLWithPath: output.path).appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent).path
                    throw InputError(file: name, "\(output.option) would overwrite \(input.what) it reads (\(input.path)): give another path")
                }
            }
        }
        for output in outputs where output.folderNames == nil {
            AtomicFile.removeStaleTemporaries(of: URL(fileURLWithPath: output.path))
        }
    }

    private func checkFile(_ path: String, option: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            if let kind = OutputPlan.special(info.st_mode) {
                throw InputError(file: path, "is \(kind), not a regular file: \(option) writes a new file and renames it over the path, which would replace it; give a file's path")
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                throw InputError(file: path, "is a folder: \(option) names a file")
            }
            if access(path, W_OK) != 0 {
                throw InputError(file: path, "cannot be written (\(String(cString: strerror(errno)))): a read-only or immutable file is not replaced")
            }
        }
        try OutputPlan.checkWritableFolder(of: path, option: option)
    }

    private func checkFolder(_ output: Output) throws {
        var info = stat()
        if stat(output.path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw InputError(file: output.path, "is a file, not a folder: \(output.option) names the output folder")
            }
            if access(output.path, W_OK | X_OK) != 0 {
                throw InputError(file: output.path, "the output folder cannot be written (\(String(cString: strerror(errno))))")
            }
        } else {
            try OutputPlan.checkWritableFolder(of: output.path, option: output.option)
        }
    }

    /// The nearest existing folder above `path` must be a folder poiar may write in.
    private static func checkWritableFolder(of path: String, option: String) throws {
        var url = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        var info = stat()
        while stat(url.path, &info) != 0 && url.path != "/" { url.deleteLastPathComponent() }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw InputError(file: path, "\(url.path) is a file, not a folder: \(option) cannot be written under it")
        }
        if access(url.path, W_OK | X_OK) != 0 {
            throw InputError(file: path, "the folder \(url.path) cannot be written (\(String(cString: strerror(errno))))")
        }
    }

    /// "a character device", "a FIFO", … for the kinds of file a rename would replace.
    public static func special(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        default: nil
        }
    }

    /// `path` with its folder's symbolic links resolved, the last name kept (a file not written
    /// yet has no inode to compare; a link is itself what a rename replaces).
    static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var folder = url.deletingLastPathComponent()
        var rest = [url.lastPathComponent]
        while !FileManager.default.fileExists(atPath: folder.path) && folder.path != "/" {
            rest.insert(folder.lastPathComponent, at: 0)
            folder.deleteLastPathComponent()
        }
        return rest.reduce(folder.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }.path
    }

    /// The files an input stands for: itself, or a folder's files (one level).
    static func files(of path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
    }
}

extension OutputPlan.Output {
    /// Whether writing this output would write over `file` (an input): the same inode, the
    /// same resolved path, or a name this folder writes.
    func covers(_ file: String) -> Bool {
        var a = stat(), b = stat()
        guard let folderNames else {
            if stat(path, &a) == 0 && stat(file, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
            return OutputPlan.resolved(path) == OutputPlan.resolved(file)
        }
        let url = URL(fileURLWithPath: OutputPlan.resolved(file))
        guard folderNames(url.lastPathComponent) else { return false }
        if stat(path, &a) == 0 && stat(url.deletingLastPathComponent().path, &b) == 0 {
            return a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return OutputPlan.resolved(path) == url.deletingLastPathComponent().path
    }
}

/// Whether `path` is inside `folder` (both absolute and resolved as the caller needs).
public func pathIsInside(_ path: String, _ folder: String) -> Bool {
    path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
}
