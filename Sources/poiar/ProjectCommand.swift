import ArgumentParser
import Foundation
import POIARCore
import POIStore
import Projection
import Rendering
import Replay

struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Project the POIs around one pose: print its frame-manifest object (and render it with --png).")

    @Option(parsing: .unconditional, help: "Device position LAT,LON[,ALT] (degrees, metres above the WGS84 ellipsoid).")
    var at: String

    @Option(parsing: .unconditional, help: "Heading of the back camera, degrees clockwise from north.")
    var heading: Double?
    @Option(parsing: .unconditional, help: "Pitch of the back camera above the horizon, degrees.")
    var pitch: Double?
    @Option(parsing: .unconditional, help: "Roll about the optical axis, degrees (+ clockwise as the user sees the screen).")
    var roll: Double?
    @Option(parsing: .unconditional, help: "Attitude quaternion W,X,Y,Z (device → ENU), instead of heading/pitch/roll.")
    var quat: String?

    @Option(help: "Image size WIDTHxHEIGHT.")
    var size: String?
    @Option(parsing: .unconditional, help: "Horizontal field of view, degrees.")
    var hfov: Double?
    @Option(parsing: .unconditional, help: "Intrinsics FX,FY,CX,CY in pixels.")
    var intrinsics: String?
    @Option(help: "Camera JSON.")
    var camera: String?

    @Option(help: "POI source: a poiar database or a file `pois import` reads.")
    var pois: String

    @OptionGroup var buildings: BuildingArguments

    @OptionGroup var selection: POISelectionArguments
    @Option(parsing: .unconditional, help: "Search radius, metres.")
    var radius: Double = 1500
    @Option(name: .customLong("max-visible"), parsing: .unconditional, help: "At most this many labels, nearest first.")
    var maxVisible: Int = 100
    @Option(help: "Also render the frame to this PNG.")
    var png: String?
    @Option(help: "Still image to draw under the labels (with --png).")
    var still: String?
    @Option(name: .customLong("max-still-pixels"), parsing: .unconditional,
            help: "Refuse a still with more pixels than this (width × height, read from its header before decoding).")
    var maxStillPixels: Int = defaultMaxStillPixels
    @Option(help: "Font file for regular text.")
    var font: String?
    @OptionGroup var layout: LayoutArguments
    @OptionGroup var hud: HUDArguments

    func validate() throws {
        _ = try location()
        _ = try pose()
        if camera == nil {
            guard size != nil else { throw ValidationError("give --size WxH with --hfov or --intrinsics, or --camera FILE") }
            guard (hfov == nil) != (intrinsics == nil) else { throw ValidationError("give exactly one of --hfov and --intrinsics with --size") }
        } else if hfov != nil || intrinsics != nil {
            throw ValidationError("--camera already gives the intrinsics: drop --hfov/--intrinsics")
        }
        if let hfov, !(hfov > 0 && hfov < 180) { throw ValidationError("--hfov: expected degrees in (0, 180), got \(hfov)") }
        if still != nil && png == nil { throw ValidationError("--still needs --png") }
        if maxStillPixels < 1 { throw ValidationError("--max-still-pixels: expected a number of pixels ≥ 1, got \(maxStillPixels)") }
        if !(radius > 0 && radius.isFinite) { throw ValidationError("--radius: expected metres > 0, got \(radius)") }
        try layout.validate()
    }

    func location() throws -> GeoCoordinate { try parseCoordinate(at, option: "--at", altitude: true) }

    func pose() throws -> Pose {
        if let quat {
            guard heading == nil, pitch == nil, roll == nil else { throw ValidationError("give --quat or --heading/--pitch/--roll, not both") }
            let v = try parseNumbers(quat, count: 4...4, option: "--quat", what: "W,X,Y,Z")
            let q = Quaternion(w: v[0], x: v[1], y: v[2], z: v[3])
            guard q.norm > 1e-6 else { throw ValidationError("--quat: the quaternion has zero length") }
            return Pose(q)
        }
        guard let heading, let pitch else { throw ValidationError("give --heading and --pitch (and optionally --roll), or --quat") }
        for (name, v) in [("--heading", heading), ("--pitch", pitch), ("--roll", roll ?? 0)] where !v.isFinite {
            throw ValidationError("\(name): expected a finite number of degrees")
        }
        return Pose(headingDeg: heading, pitchDeg: pitch, rollDeg: roll ?? 0)
    }

    func run() throws {
        try reportingErrors {
            let location = try location(), pose = try pose()
            var k: (fx: Double, fy: Double, cx: Double, cy: Double)?
            if let intrinsics {
                let v = try parseNumbers(intrinsics, count: 4...4, option: "--intrinsics", what: "FX,FY,CX,CY")
                guard v[0] > 0, v[1] > 0 else { throw ValidationError("--intrinsics: focal lengths must be > 0") }
                k = (v[0], v[1], v[2], v[3])
            }
            let stillImage = try still.map { try loadStill(URL(fileURLWithPath: $0), maxPixels: maxStillPixels) }
            let cam = try CameraSetup(cameraFile: camera, intrinsics: k, hfovDeg: hfov,
                                      size: size.map { try parseSize($0, option: "--size") })
                .resolve(stillSize: stillImage.map { ($0.width, $0.height) })
            let categories = try selection.categories()
            let db = try openPOISource(URL(fileURLWithPath: pois), onImport: { printNotice("\(pois): \($0)") },
                                       onNotice: { printNotice($0) })
            let buildingSource = try BuildingSource.open(option: buildings.buildings, poiSourcePath: pois, poiDatabase: db,
                                                         without: BuildingSource.labelsUnchecked, notice: { printNotice($0) })
            var layoutOptions = LayoutOptions(maxVisible: maxVisible)
            var annotationOptions = AnnotationOptions()
            try layout.apply(to: &layoutOptions, &annotationOptions, radius: radius)
            var overlayOptions = OverlayOptions()
            try hud.apply(to: &overlayOptions, &annotationOptions)
            // One pose has no clock: the GPS part shows the accuracy only (none given: "—").
            let overlay = FrameOverlay(hud: overlayOptions.hud, startUTC: nil,
                                       radarRange: overlayOptions.radarRange ?? layoutOptions.maxDistance ?? radius, clock: false)
            // The frame as replay computes each of its own, on its own.
            let pipeline = try FramePipeline(camera: cam, layout: layoutOptions, annotation: annotationOptions, overlay: overlay,
                                             pois: POIQuery(database: db, radius: radius, categories: categories,
                                                            language: selection.language),
                                             lineOfSight: try buildingSource?.lineOfSight(around: [location], radius: radius),
                                             fontPath: font)
            var single = FrameSequence.single
            let record = try pipeline.annotate(index: 1, time: 0, logLine: nil, still: still,
                                               image: png.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "",
                                               location: GPSFix(time: 0, coordinate: location, horizontalAccuracy: nil), pose: pose,
                                               sequence: &single)
            print(record.jsonLine)
            if let png { try writePNG(try pipeline.draw(record, still: stillImage), to: URL(fileURLWithPath: png)) }
        }
    }
}
