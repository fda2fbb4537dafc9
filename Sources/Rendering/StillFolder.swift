import Foundation
import POIARCore

/// The folder a log's stills may be read from (the log's folder, its `# stills:` folder, or
/// `--stills DIR`), and the one check that a still path stays inside it.
///
/// A path is refused when it is absolute, when `..` takes it out of the folder, or when a
/// symbolic link on the way leads out of it (the link is followed, then the check is made
/// again): a log from elsewhere must not make poiar read arbitrary files.
public struct StillFolder: Sendable {
    /// The folder as given.
    public let url: URL
    /// How messages name the folder: "the log's folder", "the stills folder (--stills)", ….
    public let role: String
    /// The folder with `..` and symbolic links resolved.
    let resolvedPath: String

    public init(_ url: URL, role: String = "the stills folder") {
        self.url = url
        self.role = role
        resolvedPath = url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Why a still path cannot be used.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The path leaves the folder (absolute, `..`, or through a symbolic link).
        case leavesFolder(path: String, folder: String, role: String)
        /// No file there (or a folder).
        case missing(path: String)

        public var description: String {
            switch self {
            case let .leavesFolder(path, folder, role):
                "still path \"\(path)\" leaves \(role) \(folder); stills must be inside it"
            case let .missing(path): "still \(path) does not exist"
            }
        }
    }

    /// The file `still` (a path relative to the folder) names, after the checks.
    public func resolve(_ still: String) throws(Refusal) -> URL {
        let folder = url.standardizedFileURL.path
        guard !still.hasPrefix("/") else { throw .leavesFolder(path: still, folder: folder, role: role) }
        let lexical = url.appendingPathComponent(still).standardizedFileURL
        guard Self.isInside(lexical.path, folder) else { throw .leavesFolder(path: still, folder: folder, role: role) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: lexical.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw .missing(path: lexical.path)
        }
        guard Self.isInside(lexical.resolvingSymlinksInPath().path, resolvedPath) else {
            throw .leavesFolder(path: still, folder: folder, role: role)
        }
        return lexical
    }

    static func isInside(_ path: String, _ folder: String) -> Bool { pathIsInside(path, folder) }
}
