import FolderExtras
import Foundation
import Manifest
import Maps
import POIARCore
import POIStore
import Recordings
import Rendering

/// `poiar merge DIR --map`: the map of a finished output folder drawn from its frames.jsonl
/// alone, without the log or its fusion — the track the frames were drawn along (smoothed,
/// with its 68 % band, over the raw fixes), where the user faced, and the POIs the frames
/// annotated — by the same drawing as `replay --map` (`TrackMap.drawing`).
extension TrackMap {
    /// The map's name in an output folder (`replay --map`, `merge --map`).
    public static let fileName = "map.png"

    /// Draws `dir`/map.png (atomically) over `baseMap` (nil: the grid), a cone every
    /// `coneInterval` seconds; returns the line saying it was written.
    public static func writeForFolder(_ dir: URL, baseMap: [MapFeature]?, coneInterval: Double) throws -> String {
        let manifest = dir.appendingPathComponent("frames.jsonl")
        guard FileManager.default.fileExists(atPath: manifest.path) else {
            throw InputError(file: dir.path, "no frames.jsonl: the map is drawn from a finished replay's frames.jsonl (merge its shards first, or replay the log)")
        }
        let frames = try FramesTrack.read(manifest)
        let defaults = MapOptions(logPath: "", outputPath: "")
        let area = Area(fixes: frames.track.fixes, longestSide: defaults.longestSide, margin: defaults.margin)
        let map = drawing(area: area, track: frames.track, facings: frames.facings, halfAngleDeg: frames.halfAngleDeg,
                          pois: frames.pois, baseMap: baseMap, coneInterval: coneInterval)
        try writePNG(try renderMap(map.drawing), to: dir.appendingPathComponent(fileName))
        return "wrote \(fileName) from frames.jsonl: \(map.summary) \(FolderExtras.size(dir, fileName))"
    }
}

/// What a map needs of a finished folder's frames.jsonl, read in one pass: the frames'
/// positions, where each faced, the camera's half field of view and the POIs annotated.
struct FramesTrack {
    var track: ManifestTrack
    var facings: [(time: Double, facing: Double?)]
    var halfAngleDeg: Double
    /// Each POI once, the farthest from the track first, so the nearest is drawn on top.
    var pois: [POI]

    static func read(_ url: URL) throws -> FramesTrack {
        let reader = try ManifestReader(url: url)
        var path: [PositionEstimate] = []
        var facings: [(time: Double, facing: Double?)] = []
        var halfAngleDeg: Double?
        var closest: [String: (poi: POI, distance: Double)] = [:]
        while let frame = try reader.nextFrame() {
            func refuse(_ field: String, _ message: String) -> InputError {
                InputError(file: url.path, line: reader.lineNumber, field: field, message)
            }
            guard frame.frame == path.count + 1 else { throw refuse("frame", "expected frame \(path.count + 1), found \(frame.frame)") }
            if let last = path.last, frame.time < last.location.time {
                throw refuse("time", "\(frame.time) is before the frame before it (\(last.location.time)): frames.jsonl lists its frames in time order")
            }
            let at = frame.location
            let here = GeoCoordinate(latitude: at.lat, longitude: at.lon, altitude: at.alt)
            guard here.isValid else { throw refuse("location", "no position on Earth: \(at.lat), \(at.lon)") }
            let gps = try at.gps.map { fix -> GPSFix in
                let c = GeoCoordinate(latitude: fix.lat, longitude: fix.lon, altitude: fix.alt)
                guard c.isValid else { throw refuse("location.gps", "no position on Earth: \(fix.lat), \(fix.lon)") }
                return GPSFix(time: frame.time, coordinate: c, horizontalAccuracy: fix.accuracy)
            }
            path.append(PositionEstimate(location: GPSFix(time: frame.time, coordinate: here, horizontalAccuracy: at.accuracy),
                                         sigma: at.sigmaM, gps: gps))
            facings.append((frame.time, frame.pose.facing ?? frame.pose.heading))
            if halfAngleDeg == nil {
                if let model = frame.camera.distortion?.model, LensDistortion.Model(rawValue: model) == nil {
                    throw refuse("camera.distortion.model", "unknown lens model \"\(model)\" (known: \(LensDistortion.Model.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard frame.camera.width > 0, frame.camera.fx > 0 else { throw refuse("camera", "no field of view: width \(frame.camera.width), fx \(frame.camera.fx)") }
                halfAngleDeg = frame.camera.withLens.halfHorizontalFOVDeg
            }
            for a in frame.annotations {
                let c = GeoCoordinate(latitude: a.lat, longitude: a.lon, altitude: a.alt)
                guard c.isValid else { throw refuse("annotations.lat", "POI \(a.id) has no position on Earth: \(a.lat), \(a.lon)") }
                if let seen = closest[a.id], seen.distance <= a.distance { continue }
                closest[a.id] = (POI(id: a.id, name: a.name, category: a.category, coordinate: c), a.distance)
            }
        }
        guard let halfAngleDeg else { throw InputError(file: url.path, "lists no frames: nothing to draw a map of") }
        let pois = closest.values.sorted { ($0.distance, $1.poi.id) > ($1.distance, $0.poi.id) }.map(\.poi)
        return FramesTrack(track: ManifestTrack(path: path), facings: facings, halfAngleDeg: halfAngleDeg, pois: pois)
    }
}

/// A finished folder's track as its frames.jsonl gives it: each frame's position (the
/// smoothed track's with its 68 % radius, when the replay smoothed it) and the raw GPS fix
/// beside it. It is known at the frames' times only: `location(at:)` is the nearest frame's.
struct ManifestTrack: PositionTrack {
    let path: [PositionEstimate]
    /// The raw GPS positions (the positions themselves when not smoothed), the first frame's
    /// of each second: the rate of a phone's fixes, so the faint dots read as fixes, not as a
    /// dark line of one dot per frame (30 a second from a video).
    let fixes: [GPSFix]

    init(path: [PositionEstimate]) {
        self.path = path
        fixes = FrameSelection.thinned(path.map(\.location.time), rate: 1).map { path[$0].gps ?? path[$0].location }
    }

    func location(at time: Double) -> GPSFix? {
        path.nearestIndex(to: time, by: \.location.time).map { path[$0].location }
    }
}
