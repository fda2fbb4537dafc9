import Foundation
import Geodesy
import POIARCore
import Projection
import Rendering

/// An arrow at the image edge toward a POI outside the view (manifest: `offscreen`).
public struct OffscreenIndicator: Sendable, Equatable {
    /// The arrow's tip, in output pixels (inset from the edge).
    public var position: Point2
    /// Direction from the image centre toward the POI, degrees in image coordinates
    /// (0 = right, 90 = down).
    public var angleDeg: Double
    /// False when the arrow shows its distance alone: with its name it found no place clear of
    /// the cards and anchors (manifest: `"short": true`).
    public var showsName = true
    public init(position: Point2, angleDeg: Double, showsName: Bool = true) {
        self.position = position; self.angleDeg = angleDeg; self.showsName = showsName
    }
}

/// Geometry and indicator options of the annotator.
public struct AnnotationOptions: Sendable {
    /// Standard terrestrial refraction coefficient k (default 0.13): light bends over the
    /// curved Earth, so a far POI appears higher by k·d²/(2R); 0 turns it off. Below ~60 km
    /// the lift is under half a pixel at phone focal lengths.
    public var refractionCoefficient = 0.13
    /// Off-screen indicators for at most this many of the nearest POIs outside the view
    /// (default 3; 0 turns them off).
    public var offscreenIndicators = 3
    /// Inset of an indicator's tip from the image edge, px at 720 (scaled with the image).
    public var indicatorInset = 14.0
    /// Least vertical distance between two indicators near the same place, px at 720.
    public var indicatorSpacing = 46.0
    /// What a card's second line shows after the distance.
    public var secondLine: CardSecondLine = .none
    /// What to do with POIs behind buildings (default hide; `--occlusion`). Needs buildings.
    public var occlusion: OcclusionMode = .hide
    /// Height of the camera above the ground, metres (default 1.5: a phone held up to look
    /// through): where sight lines start.
    public var eyeHeight = 1.5
    public init() {}
}

/// A frame's labels: one annotation per POI hit, and the cluster cards.
public struct FrameLabels: Sendable {
    public var annotations: [FrameAnnotation]
    public var clusters: [ClusterAnnotation]
    /// Sight lines tested against the buildings, and the time they took.
    public var sightLines = 0
    public var occlusionSeconds = 0.0
    /// Edge arrows left out because even their distance alone found no place clear of the HUD,
    /// the other arrows, the marked anchors and the cards.
    public var arrowsLeftOut = 0
}

/// Projects the POIs near the device into one frame and lays out their labels.
public struct FrameAnnotator: Sendable {
    public var camera: CameraIntrinsics
    public var layoutOptions: LayoutOptions
    public var sizing: any LabelSizing
    public var options: AnnotationOptions
    /// Pixels per pixel-at-720 (the card style's scale).
    public var scale: Double
    /// The buildings that can hide POIs (nil: none known, nothing is hidden).
    public var lineOfSight: LineOfSight?

    public init(camera: CameraIntrinsics, layoutOptions: LayoutOptions, sizing: any LabelSizing,
                options: AnnotationOptions = AnnotationOptions(), scale: Double = 1, lineOfSight: LineOfSight? = nil) {
        self.camera = camera; self.layoutOptions = layoutOptions; self.sizing = sizing
        self.options = options; self.scale = scale; self.lineOfSight = lineOfSight
    }

    /// The annotator of frames drawn with `style` and `overlay`: `layout`'s lengths (given at
    /// 720 px) scaled with the image, and the HUD's areas kept clear of cards and arrows.
    public init(camera: CameraIntrinsics, layout: LayoutOptions, annotation: AnnotationOptions, style: CardStyle,
                overlay: FrameOverlay, lineOfSight: LineOfSight? = nil) throws {
        var scaled = layout.scaled(by: style.scale)
        scaled.keepOut = try overlay.keepOut(width: camera.width, height: camera.height, scale: style.scale)
        self.init(camera: camera, layoutOptions: scaled, sizing: style, options: annotation, scale: style.scale,
                  lineOfSight: lineOfSight)
    }

    /// Annotations for POI hits of one frame (distance and bearing from `location`), given
    /// nearest first (as `POIDatabase.query` returns them). A POI without altitude sits at the device's altitude.
    /// Both altitudes are above the WGS84 ellipsoid (the device's GPS; a POI's `ele` was made
    /// ellipsoidal at import), so no geoid enters here (docs/altitude.md).
    public func annotate(hits: [POIHit], location: GeoCoordinate, pose: Pose) -> [FrameAnnotation] {
        var none: LayoutMemory? = nil
        return annotate(hits: hits, location: location, pose: pose, memory: &none, time: 0)
    }

    /// One frame of a sequence: `memory` keeps the layout calm from frame to frame.
    public func annotate(hits: [POIHit], location: GeoCoordinate, pose: Pose,
                         memory: inout LayoutMemory?, time: Double) -> [FrameAnnotation] {
        labels(hits: hits, location: location, pose: pose, memory: &memory, time: time).annotations
    }

    /// One frame's labels: each POI projected, checked against the buildings (when known and
    /// `occlusion` is not off), decluttered, laid out and faded (`LabelLayout.plan`); edge
    /// arrows toward the nearest POIs out of view and in sight. With `positionSigma` (the 68 %
    /// radius of the position's error) a card whose bearing is less certain than its own width
    /// says so: "~" before its distance (`bearingIsUncertain`).
    public func labels(hits: [POIHit], location: GeoCoordinate, pose: Pose,
                       memory: inout LayoutMemory?, time: Double, positionSigma: Double? = nil) -> FrameLabels {
        var device = location
        if device.altitude == nil { device.altitude = 0 }
        let plane = LocalTangentPlane(origin: device)
        let projection = CameraProjection(camera: camera, pose: pose)
        let cameraPoints = hits.map { projection.cameraCoordinates(enu: apparentENU(plane.enu($0.poi.coordinate))) }
        let viewpoint = options.occlusion == .off ? nil : lineOfSight?.viewpoint(device: location, eyeHeight: options.eyeHeight)
        var candidates = hits.indices.map { i in
            let c = cameraPoints[i]
            var detail = cardDetail(for: hits[i].poi, distance: hits[i].distance, secondLine: options.secondLine)
            if let sigma = positionSigma, c.z > 0,
               Self.bearingIsUncertain(distance: hits[i].distance, sigma: sigma,
                                       cardWidth: sizing.labelSize(name: hits[i].poi.labelText, detail: detail).width, fx: camera.fx) {
                detail = "~" + detail
            }
            return LabelCandidate(id: hits[i].poi.id, name: hits[i].poi.labelText,
                                  detail: detail,
                                  distance: hits[i].distance,
                                  anchor: c.z > 0 ? projection.pixel(normalisedX: c.x / c.z, y: c.y / c.z) : nil,
                                  category: hits[i].poi.category)
        }
        let layout = LabelLayout(options: layoutOptions, imageWidth: camera.width, imageHeight: camera.height)
        // Line of sight for the POIs in view (the only ones that could get a card or a marker).
        var occluded = [Bool?](repeating: nil, count: hits.count)
        var sightLines = 0
        let sightStart = DispatchTime.now().uptimeNanoseconds
        if let viewpoint, let lineOfSight {
            for i in hits.indices where layout.isEligible(candidates[i]) {
                occluded[i] = lineOfSight.isOccluded(hits[i].poi.coordinate, from: viewpoint)
                candidates[i].occluded = occluded[i]!
                sightLines += 1
            }
        }
        var sightNanoseconds = DispatchTime.now().uptimeNanoseconds - sightStart
        let planned = layout.plan(candidates, sizing: sizing, dimOccluded: options.occlusion == .dim, memory: &memory, time: time)
        let placed = planned.labels
        var annotations = hits.indices.map { i in
            var a = FrameAnnotation(poi: hits[i].poi, distance: hits[i].distance, bearing: hits[i].bearing,
                                    anchor: candidates[i].anchor, box: placed[i].box,
                                    stackLevel: placed[i].stackLevel, visible: placed[i].visible, detail: candidates[i].detail)
            a.occluded = occluded[i]
            a.marker = placed[i].marker
            a.opacity = placed[i].opacity
            a.sizeFactor = placed[i].sizeFactor
            a.cluster = placed[i].cluster
            return a
        }
        let clusters = planned.clusters.map { c in
            ClusterAnnotation(id: c.cluster.id, name: c.cluster.name, detail: c.cluster.detail, category: c.cluster.category,
                              members: c.cluster.members.map { hits[$0].poi.id }, nearest: c.cluster.nearest,
                              farthest: c.cluster.farthest, anchor: c.cluster.anchor, box: c.label.box ?? Rect(x: 0, y: 0, width: 0, height: 0),
                              stackLevel: c.label.stackLevel, opacity: c.label.opacity, sizeFactor: c.label.sizeFactor)
        }
        // Off-screen indicators for the nearest POIs whose anchor is not on the image.
        var given = 0, arrowsLeftOut = 0
        var indicators: [Point2] = []
        var footprints: [Rect] = []  // of the arrows given so far, with their texts
        // An arrow never covers a POI marked on the image: it moves along its edge off every
        // anchor with a card, a dot or a marker, and every cluster card's anchor.
        let reach = anchorClearance * scale
        let markedAnchors = annotations.indices.filter { annotations[$0].visible || annotations[$0].marker != nil }
            .compactMap { candidates[$0].anchor } + clusters.map(\.anchor)
        let anchorAreas = markedAnchors.map { Rect(x: $0.x - reach, y: $0.y - reach, width: 2 * reach, height: 2 * reach) }
        let cardBoxes = annotations.filter(\.visible).compactMap(\.box) + clusters.map(\.box)
        for i in annotations.indices where given < options.offscreenIndicators {
            if let maxDistance = layoutOptions.maxDistance, hits[i].distance > maxDistance { break }
            if let a = candidates[i].anchor, projection.isOnImage(a) { continue }
            // An arrow says "turn and you will see it": none for a POI behind a building.
            if let viewpoint, let lineOfSight {
                let start = DispatchTime.now().uptimeNanoseconds
                occluded[i] = lineOfSight.isOccluded(hits[i].poi.coordinate, from: viewpoint)
                sightNanoseconds += DispatchTime.now().uptimeNanoseconds - start
                sightLines += 1
                annotations[i].occluded = occluded[i]
                if occluded[i]! { continue }
            }
            var mark = indicator(toward: cameraPoints[i], projection: projection)
            // Indicators on the same stretch of edge are spread apart so their texts do not
            // cover each other: along the edge, nearer ones keep their place.
            let spacing = options.indicatorSpacing * scale
            var tries = 0
            while tries < 8, let clash = indicators.first(where: { abs($0.x - mark.position.x) < spacing * 4 && abs($0.y - mark.position.y) < spacing }) {
                mark.position.y = min(Double(camera.height) - spacing, max(spacing, clash.y + (clash.y + spacing < Double(camera.height) - spacing ? spacing : -spacing)))
                tries += 1
            }
            let name = hits[i].poi.labelText, detail = formatDistance(hits[i].distance)
            // Never over an anchor or a card: an arrow that finds no clear place with its name
            // shows its distance alone (a shorter pill); one that finds none even so is left out,
            // and counted.
            let avoiding = footprints + anchorAreas + cardBoxes
            if let clear = keptClear(mark, name: name, detail: detail, avoiding: avoiding) {
                mark = clear
            } else if let short = keptClear(mark, name: "", detail: detail, avoiding: avoiding) {
                mark = OffscreenIndicator(position: short.position, angleDeg: short.angleDeg, showsName: false)
            } else {
                arrowsLeftOut += 1
                continue
            }
            indicators.append(mark.position)
            footprints.append(sizing.indicatorFootprint(tip: mark.position, angleDeg: mark.angleDeg, name: mark.showsName ? name : "",
                                                        detail: detail, imageWidth: camera.width, imageHeight: camera.height))
            annotations[i].offscreen = mark
            given += 1
        }
        return FrameLabels(annotations: annotations, clusters: clusters, sightLines: sightLines,
                           occlusionSeconds: viewpoint == nil ? 0 : Double(sightNanoseconds) / 1e9, arrowsLeftOut: arrowsLeftOut)
    }

    /// The arrow moved along the image edge so that it and its text keep out of the areas the
    /// layout keeps clear (the HUD), and of `avoiding` (the arrows given before, the marked
    /// anchors, the cards): the smallest shift that clears every one and keeps the tip on the image. An
    /// arrow on a side edge moves only up or down (so it stays on its edge and points the same
    /// way); one on the top or bottom edge moves along it, or off the top edge's full-width
    /// compass tape. The smallest shift sets the footprint against some area's edge, so those
    /// places are the ones tried, nearest first. nil when nothing clears: the arrow is not drawn.
    func keptClear(_ mark: OffscreenIndicator, name: String, detail: String, avoiding: [Rect] = []) -> OffscreenIndicator? {
        let areas = layoutOptions.keepOut + avoiding
        let width = Double(camera.width), height = Double(camera.height)
        let inset = options.indicatorInset * scale, gap = 4 * scale
        let angle = mark.angleDeg * .pi / 180
        let onSide = abs(cos(angle)) >= abs(sin(angle))
        func footprint(_ tip: Point2) -> Rect {
            sizing.indicatorFootprint(tip: tip, angleDeg: mark.angleDeg, name: name, detail: detail,
                                      imageWidth: camera.width, imageHeight: camera.height)
        }
        func onImage(_ p: Point2) -> Bool { p.x >= inset && p.x <= width - inset && p.y >= inset && p.y <= height - inset }
        func isClear(_ tip: Point2) -> Bool { let f = footprint(tip); return !areas.contains { f.intersects($0) } }
        let tip = mark.position
        if isClear(tip) { return mark }
        let f = footprint(tip)
        var shifts: [Point2] = []
        for k in areas {
            shifts += [Point2(0, k.minY - f.maxY - gap), Point2(0, k.maxY - f.minY + gap)]
            if !onSide { shifts += [Point2(k.minX - f.maxX - gap, 0), Point2(k.maxX - f.minX + gap, 0)] }
        }
        let best = shifts.sorted { hypot($0.x, $0.y) < hypot($1.x, $1.y) }.lazy
            .map { Point2(tip.x + $0.x, tip.y + $0.y) }.first { onImage($0) && isClear($0) }
        return best.map { OffscreenIndicator(position: $0, angleDeg: mark.angleDeg) }
    }

    /// How far, px at 720, an edge arrow and its text keep from a marked anchor's centre: the
    /// anchor dot with its white ring and halo (7.5 px), and a little air.
    let anchorClearance = 10.0

    /// The ENU offset as seen through standard refraction: raised by k·d²/(2R).
    func apparentENU(_ v: Vector3) -> Vector3 {
        guard options.refractionCoefficient != 0 else { return v }
        let d2 = v.x * v.x + v.y * v.y
        return Vector3(v.x, v.y, v.z + options.refractionCoefficient * d2 / (2 * meanEarthRadius))
    }

    /// Where the ray from the principal point toward the POI meets the image border, inset.
    /// The ray's direction is the POI's angles off the optical axis, horizontal (X against Z)
    /// and vertical (Y against the horizontal distance): a POI behind points left or right,
    /// the shorter way to turn to it.
    func indicator(toward c: Vector3, projection: CameraProjection) -> OffscreenIndicator {
        var dx = atan2(c.x, c.z)
        let dy = atan2(c.y, (c.x * c.x + c.z * c.z).squareRoot())
        if abs(dx) < 1e-9 && abs(dy) < 1e-9 { dx = 1 }  // on the axis (not off-screen): right
        if c.z <= 0 && abs(c.x) < 1e-9 { dx = .pi }  // straight behind: turn right
        let inset = options.indicatorInset * scale
        let halfW = max(1, min(camera.cx, Double(camera.width) - camera.cx) - inset)
        let halfH = max(1, min(camera.cy, Double(camera.height) - camera.cy) - inset)
        let t = min(abs(dx) > 0 ? halfW / abs(dx) : .infinity, abs(dy) > 0 ? halfH / abs(dy) : .infinity)
        var position = Point2(camera.cx + dx * t, camera.cy + dy * t)
        // On a side edge, an arrow toward a POI near the horizon sits on the horizon's row
        // there, where the user's eye and the labels' anchors are.
        if abs(dx) * halfH >= abs(dy) * halfW, abs(dy) < radians(15) {
            let h0 = projection.horizonValue(at: Point2(position.x, 0)), h1 = projection.horizonValue(at: Point2(position.x, 1))
            if abs(h1 - h0) > 1e-12 {
                let row = -h0 / (h1 - h0)
                if row >= inset && row <= Double(camera.height) - inset { position.y = row }
            }
        }
        return OffscreenIndicator(position: position,
                                  angleDeg: wrap360(degrees(atan2(dy, dx))))
    }
}

extension FrameAnnotator {
    /// Whether a POI `distance` m away may lie anywhere across more than its card's width: the
    /// bearing's uncertainty, atan(σ / distance), against the angle the card spans, atan(w / fx)
    /// (a position error of σ across the line of sight turns the bearing by that much).
    public static func bearingIsUncertain(distance: Double, sigma: Double, cardWidth: Double, fx: Double) -> Bool {
        guard sigma > 0, fx > 0 else { return false }
        guard distance > 0 else { return true }
        return sigma / distance > cardWidth / fx
    }
}
