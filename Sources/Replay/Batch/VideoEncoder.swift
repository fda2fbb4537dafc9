import Foundation
import POIARCore

/// `--video`: `video.mp4` from the frames, encoded by an installed ffmpeg (H.264 when that
/// ffmpeg has it, yuv420p so that every player shows it). poiar links no video codec: ffmpeg
/// is found on `PATH` and checked before anything is rendered.
public struct VideoEncoder: Sendable {
    public static let fileName = "video.mp4"
    public let ffmpeg: URL

    /// Finds ffmpeg on `PATH` (of `environment`), or explains that it is missing.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let path = environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                ffmpeg = candidate
                return
            }
        }
        throw InputError(file: "ffmpeg",
                         "not installed (no ffmpeg on PATH): install it (Debian/Ubuntu: apt-get install ffmpeg) or leave out --video; the frames are PNG files either way")
    }

    /// Frames per second of the video: the frames' mean rate over their times (a log's frame
    /// rows need not be regular), else `fallback`.
    public static func frameRate(count: Int, firstTime: Double, lastTime: Double, fallback: Double) -> Double {
        guard count >= 2, lastTime > firstTime else { return fallback }
        return Double(count - 1) / (lastTime - firstTime)
    }

    /// Encodes `frame_000001.png` … `frame_NNNNNN.png` of `dir` into `dir/video.mp4`, written
    /// to a temporary file first and renamed into place.
    public func encode(dir: URL, frameCount: Int, frameRate: Double) throws {
        let output = dir.appendingPathComponent(VideoEncoder.fileName)
        let tmp = dir.appendingPathComponent(".\(VideoEncoder.fileName).\(ProcessInfo.processInfo.processIdentifier).tmp.mp4")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let p = Process()
        p.executableURL = ffmpeg
        p.arguments = [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-framerate", String(format: "%.6f", frameRate), "-start_number", "1",
            "-i", dir.appendingPathComponent("frame_%06d.png").path,
            "-frames:v", String(frameCount),
            // yuv420p needs even sizes: pad an odd edge by one pixel.
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart",
            tmp.path,
        ]
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch {
            throw InputError(file: ffmpeg.path, "cannot run ffmpeg: \(error.localizedDescription)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let last = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "no message"
            throw InputError(file: output.path, "ffmpeg failed (exit status \(p.terminationStatus)): \(last)")
        }
        try AtomicFile.replace(output, with: tmp)
    }
}
