import Foundation
import POIARCore

/// A folder of camera stills whose file names are their capture times, as Sensor Logger
/// writes them (`Camera/1698501144401.jpg`: milliseconds since the Unix epoch, UTC). Names of
/// 10, 13, 16 or 19 digits are read as seconds, milliseconds, microseconds or nanoseconds
/// since the epoch (an optional fraction after a `.` is allowed for seconds and
/// milliseconds), so a sequence from another app or camera that names its files by capture
/// time reads the same way.
public struct StillSequence: Sendable {
    public let folder: String
    /// The stills, by capture time: seconds since the Unix epoch, and the file name.
    public let frames: [(time: Double, name: String)]

    /// Image files told by their extension.
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// Reads the folder's image files. A name that is not a capture time, two stills with the
    /// same time, or a folder without images is an error naming the file or folder; other
    /// files (a `.txt`, a sidecar) are left alone, said by `notice`.
    public init(folder: String, notice: (String) -> Void = { _ in }) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw InputError(file: folder, "cannot list the stills folder: \(error.localizedDescription)")
        }
        try self.init(names: names, folder: folder, notice: notice)
        // A still that is a symbolic link out of the folder (an export's Camera/ made by
        // someone else) is refused, as a still path in a log that leads out is.
        let real = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        for frame in frames {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(frame.name)
            let target = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard pathIsInside(target, real) else {
                throw InputError(file: url.path, "is a symbolic link to \(target), outside the stills folder \(folder): stills must stay inside it")
            }
        }
    }

    /// The stills among `names`, the files of `folder` (which may be inside an archive: it
    /// only names them in messages).
    public init(names: [String], folder: String, notice: (String) -> Void = { _ in }) throws {
        self.folder = folder
        var found: [(time: Double, name: String)] = []
        var others: [String] = []
        for name in names {
            let ext = (name as NSString).pathExtension.lowercased()
            guard Self.imageExtensions.contains(ext) else { others.append(name); continue }
            let stem = (name as NSString).deletingPathExtension
            guard let time = Self.captureTime(stem) else {
                throw InputError(file: URL(fileURLWithPath: folder).appendingPathComponent(name).path,
                                 "the name is not a capture time: expected milliseconds since 1970 (UTC), as Sensor Logger names its stills (e.g. 1698501144401.jpg), or 10/16/19 digits for seconds, microseconds, nanoseconds")
            }
            found.append((time, name))
        }
        guard !found.isEmpty else {
            throw InputError(file: folder, "no stills (.jpg, .jpeg, .png named by their capture time) in this folder")
        }
        found.sort { $0.time < $1.time }
        for k in 1..<found.count where found[k].time == found[k - 1].time {
            throw InputError(file: URL(fileURLWithPath: folder).appendingPathComponent(found[k].name).path,
                             "has the same capture time as \(found[k - 1].name)")
        }
        if !others.isEmpty {
            notice("\(folder): \(others.count) file(s) that are not stills left alone (\(others.prefix(3).joined(separator: ", "))\(others.count > 3 ? ", …" : ""))")
        }
        frames = found
    }

    /// Seconds since the epoch from a file name's stem, by its number of digits; nil when it is
    /// not such a number or falls outside 1990–2100 (a frame counter, a date in another form).
    static func captureTime(_ stem: String) -> Double? {
        let parts = stem.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCII),
              whole.allSatisfy(\.isNumber) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let perSecond: Double
        switch whole.count {
        case 10: perSecond = 1
        case 13: perSecond = 1e3
        case 16 where fraction.isEmpty: perSecond = 1e6
        case 19 where fraction.isEmpty: perSecond = 1e9
        default: return nil
        }
        // Whole and fraction apart, so nanoseconds keep their precision in a Double of seconds.
        guard let units = Int64(whole) else { return nil }
        let seconds = Double(units / Int64(perSecond)) + Double(units % Int64(perSecond)) / perSecond
            + (fraction.isEmpty ? 0 : (Double("0." + fraction) ?? 0) / perSecond)
        guard seconds >= 631_152_000, seconds < 4_102_444_800 else { return nil }  // 1990 … 2100
        return seconds
    }
}
