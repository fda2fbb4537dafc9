import Footage
import Foundation
import Fusion
import PhoneImport
import POIARCore
import SensorLog

/// One recording (a `poiar-log/1` log, a phone app's export, a GoPro clip), opened once for a
/// whole command.
///
/// Opening reads its header (metadata, sensors). The first reading then goes as far as the
/// command needs: to the first usable GPS fix (for north and `--fetch`; the records met on
/// the way are kept for the pass that follows), or to the end (`loadWhole`, for offline
/// fusion: the streams in memory, the GPS track, the frame rows, the counts, the time span).
/// North is resolved from it once (`TrueNorth.reference(for:)`). A streaming pass (causal
/// fusion) continues the first reading where it stopped. The recording is read a second time
/// only when the first reading is used up and a pass or the MCAP file needs the samples again
/// (`secondReading`); a GoPro clip's telemetry is not parsed again for it.
public final class Recording {
    public let path: String
    public let metadata: LogMetadata
    /// The sensors the recording holds, when known without reading it (`LogSource.sensors`).
    public let sensors: Set<String>?

    /// The first reading; nil once it is used up.
    private var first: (any LogSource)?
    private var firstEnded = false
    /// Whether every record the first reading gave is still there for a pass (false once
    /// records were dropped: a pass then reads the recording again).
    private var firstIsWhole = true
    /// Records the first reading gave while looking ahead, not yet handed to a pass.
    private var ahead: [LogRecord] = []
    /// Notices the first reading gave while looking ahead: said when a pass starts, where the
    /// reading's notices belong.
    private var heldNotices: [String] = []
    private var firstFix: GPSFix??
    private var whole: LoadedLog?
    /// Why the recording cannot be held whole for offline fusion, once found.
    private var tooLong: String?
    /// How many times the recording was opened (1, then 2 after `secondReading`).
    public private(set) var readings = 1
    /// A new reading from the start: the file opened again, or for a GoPro clip the telemetry
    /// already parsed, walked again.
    private let reopen: () throws -> any LogSource

    /// Records kept at most while looking ahead for the first usable fix; past them the search
    /// goes on without keeping them, and the pass reads the recording again.
    static let readAheadLimit = 1 << 20

    /// A log, a phone export or a clip: told once, from its first bytes.
    public let kind: RecordingKind
    /// A clip's file, open since its telemetry was read: its video is decoded from it.
    public let clip: MediaFile?

    public init(path: String) throws {
        self.path = path
        let source = try openLogSource(path: path)
        kind = RecordingKind(of: source)
        clip = (source as? GoProRecording)?.media
        metadata = source.metadata
        sensors = source.sensors
        first = source
        if let clip = source as? GoProRecording {
            reopen = { clip.reopened() }
        } else {
            reopen = { [path, kind] in try openLogSource(path: path, kind: kind) }
        }
        source.onNotice = { [unowned self] in self.heldNotices.append($0) }
    }

    // MARK: - What one reading tells

    /// The first usable GPS fix (accurate enough to place the magnetic model,
    /// `TrueNorth.isUsable`); nil when the recording has none. Found once.
    public func firstUsableFix() throws -> GPSFix? {
        if let firstFix { return firstFix }
        var found: GPSFix?
        if first == nil {
            // The first reading went to a pass already: another one looks.
            let other = try secondReading()
            while let record = try other.nextRecord() {
                if let fix = Self.usableFix(record) { found = fix; break }
            }
        } else {
            while let record = try readFirst() {
                if firstIsWhole {
                    if ahead.count < Self.readAheadLimit {
                        ahead.append(record)
                    } else {
                        // Too far ahead to keep: a pass reads the recording again.
                        ahead = []
                        firstIsWhole = false
                    }
                }
                if let fix = Self.usableFix(record) { found = fix; break }
            }
            if !firstIsWhole { first = nil }  // nothing more will be read from it
        }
        firstFix = .some(found)
        return found
    }

    @inline(__always)
    private static func usableFix(_ record: LogRecord) -> GPSFix? {
        if case .gps(let fix) = record.sample, TrueNorth.isUsable(fix) { return fix }
        return nil
    }

    /// Whether the recording has no samples at all.
    public func isEmpty() throws -> Bool {
        if let whole { return whole.firstTime == nil }
        if !ahead.isEmpty { return false }
        guard firstIsWhole, first != nil else { return false }  // records were read already
        guard let record = try readFirst() else { return true }
        ahead.append(record)
        return false
    }

    /// The whole recording in memory for offline fusion, read once to its end. Throws
    /// `FusionPass.OfflineNotPossible` when it is too long to hold (a plain log file too
    /// large, or past `limit` sensor samples); its first usable fix is known all the same.
    @discardableResult
    public func loadWhole(limit: Int = FusionPass.maxOfflineSamples) throws -> LoadedLog {
        if let whole { return whole }
        if let tooLong { throw FusionPass.OfflineNotPossible(reason: tooLong) }
        if limit == FusionPass.maxOfflineSamples, first is SensorLogReader, !path.hasSuffix(".gz"),
           let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
           size > limit * FusionPass.longestSensorRowBytes {
            // Surely more samples than can be held: not read whole only to find that out.
            tooLong = "\(size / 1_000_000) MB, too long to hold for offline fusion"
            throw FusionPass.OfflineNotPossible(reason: tooLong!)
        }
        let reading = try takeFirstReading() ?? secondReading()
        let log = try LoadedLog.read(reading, limit: limit)
        if let overflow = log.overflow {
            tooLong = overflow
            if firstFix == nil {
                var found = log.firstUsableFix
                while found == nil, let record = try reading.nextRecord() { found = Self.usableFix(record) }
                firstFix = .some(found)
            }
            throw FusionPass.OfflineNotPossible(reason: overflow)
        }
        whole = log
        firstFix = .some(log.firstUsableFix)
        return log
    }

    // MARK: - Readings for a pass

    /// The recording as a stream of records for a pass: the first reading where it stopped
    /// (the records it looked ahead at first), or a second reading when the first is used up.
    /// The first reading's held notices are said through `notice` first.
    public func stream(notice: ((String) -> Void)?) throws -> any LogSource {
        releaseNotices(to: notice)
        let reading = try takeFirstReading() ?? secondReading()
        reading.onNotice = notice
        return reading
    }

    /// The first reading, handed over to a pass: the records looked ahead at, then the rest;
    /// nil when it is used up. The recording keeps none of it.
    private func takeFirstReading() -> (any LogSource)? {
        guard firstIsWhole, let first else { return nil }
        // Nothing looked ahead at: the reader itself, with no layer between it and the pass.
        let reading = ahead.isEmpty && !firstEnded ? first : PrefixedReading(prefix: ahead, rest: first, restEnded: firstEnded)
        ahead = []
        self.first = nil
        firstIsWhole = false
        return reading
    }

    /// Says the notices the first reading gave so far, and passes its later ones straight on.
    public func releaseNotices(to notice: ((String) -> Void)?) {
        heldNotices.forEach { notice?($0) }
        heldNotices.removeAll()
        first?.onNotice = notice
    }

    /// Another reading of the recording from its start, whose notices are not said unless
    /// the caller sets `onNotice` (the first reading said them).
    public func secondReading() throws -> any LogSource {
        readings += 1
        let reading = try reopen()
        reading.onNotice = nil
        return reading
    }

    private func readFirst() throws -> LogRecord? {
        guard !firstEnded, let first else { return nil }
        if let record = try first.nextRecord() { return record }
        firstEnded = true
        return nil
    }
}

/// A pass's reading of a recording's first reading: the records looked ahead at, then the
/// rest of the reading, straight through.
final class PrefixedReading: LogSource {
    let path: String
    let metadata: LogMetadata
    var onNotice: ((String) -> Void)? {
        get { rest.onNotice }
        set { rest.onNotice = newValue }
    }
    private var prefix: [LogRecord]
    private var index = 0
    private let rest: any LogSource
    private var restEnded: Bool

    init(prefix: [LogRecord], rest: any LogSource, restEnded: Bool) {
        path = rest.path
        metadata = rest.metadata
        self.prefix = prefix
        self.rest = rest
        self.restEnded = restEnded
    }

    func nextRecord() throws -> LogRecord? {
        if index < prefix.count {
            index += 1
            return prefix[index - 1]
        }
        if !prefix.isEmpty { prefix = []; index = 0 }
        guard !restEnded else { return nil }
        if let record = try rest.nextRecord() { return record }
        restEnded = true
        return nil
    }
}
