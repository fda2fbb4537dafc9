import POIARCore

extension ManifestFrame {
    /// The frame's line in frames.jsonl: keys in a fixed order and numbers rounded to fixed
    /// decimals (`JSONWriter`), so a replay's manifest is the same byte for byte however it is
    /// run (`--jobs`, `--resume`, merged shards), which JSONEncoder does not promise.
    public var jsonLine: String {
        var w = JSONWriter()
        w.beginObject()
        w.int("frame", frame)
        w.number("time", time, decimals: 6)
        w.string("image", image)
        w.string("still", still)
        if let footage { w.string("footage", footage) }
        if let footageFrame { w.int("footage_frame", footageFrame) }
        if let footageTime { w.number("footage_time_s", footageTime, decimals: 6) }
        w.beginObject("location")
        w.number("lat", location.lat)
        w.number("lon", location.lon)
        w.number("alt", location.alt, decimals: 3)
        w.number("accuracy", location.accuracy, decimals: 3)
        if let sigma = location.sigmaM { w.number("sigma_m", sigma, decimals: 3) }
        if let gps = location.gps {
            w.beginObject("gps")
            w.number("lat", gps.lat)
            w.number("lon", gps.lon)
            w.number("alt", gps.alt, decimals: 3)
            w.number("accuracy", gps.accuracy, decimals: 3)
            w.endObject()
        }
        w.endObject()
        w.beginObject("pose")
        w.beginArray("q")
        for c in pose.q { w.number(nil, c) }
        w.endArray()
        w.number("heading", pose.heading, decimals: 4)
        w.number("pitch", pose.pitch, decimals: 4)
        w.number("roll", pose.roll, decimals: 4)
        w.number("facing", pose.facing, decimals: 4)
        if let sigma = pose.headingSigmaDeg { w.number("heading_sigma_deg", sigma, decimals: 2) }
        w.endObject()
        if let view { w.string("view", view) }
        w.beginObject("camera")
        w.int("width", camera.width)
        w.int("height", camera.height)
        w.number("fx", camera.fx)
        w.number("fy", camera.fy)
        w.number("cx", camera.cx)
        w.number("cy", camera.cy)
        if let d = camera.distortion {
            w.beginObject("distortion")
            if let model = d.model { w.string("model", model) }
            w.number("k1", d.k1); w.number("k2", d.k2)
            if let p1 = d.p1, let p2 = d.p2 { w.number("p1", p1); w.number("p2", p2) }
            w.number("k3", d.k3)
            if let k4 = d.k4 { w.number("k4", k4) }
            w.endObject()
        }
        w.endObject()
        w.beginArray("annotations")
        for a in annotations { a.write(&w) }
        w.endArray()
        if let clusters {
            w.beginArray("clusters")
            for c in clusters { c.write(&w) }
            w.endArray()
        }
        w.endObject()
        return w.text
    }
}

extension ManifestFrame.Annotation {
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.string("id", id)
        w.string("name", name)
        w.string("category", category)
        w.number("lat", lat)
        w.number("lon", lon)
        w.number("alt", alt)
        w.number("distance_m", distance, decimals: 3)
        w.number("bearing_deg", bearing, decimals: 4)
        w.number("anchor_x", anchorX, decimals: 3)
        w.number("anchor_y", anchorY, decimals: 3)
        if let box { box.write(&w) } else { w.raw("box", "null") }
        w.int("stack_level", stackLevel)
        w.bool("visible", visible)
        if let occluded { w.bool("occluded", occluded) }
        if let marker { w.string("marker", marker.rawValue) }
        if let cluster { w.int("cluster", cluster) }
        if let opacity { w.number("opacity", opacity, decimals: 3) }
        if let size { w.number("size", size, decimals: 2) }
        if let offscreen {
            w.beginObject("offscreen")
            w.number("x", offscreen.x, decimals: 3); w.number("y", offscreen.y, decimals: 3)
            w.number("angle_deg", offscreen.angle, decimals: 3)
            if let short = offscreen.short { w.bool("short", short) }
            w.endObject()
        }
        w.endObject()
    }
}

extension ManifestFrame.Cluster {
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.string("id", id)
        w.string("name", name)
        w.string("detail", detail)
        w.string("category", category)
        w.beginArray("members")
        for m in members { w.string(nil, m) }
        w.endArray()
        w.number("nearest_m", nearest, decimals: 3)
        w.number("farthest_m", farthest, decimals: 3)
        w.number("anchor_x", anchorX, decimals: 3)
        w.number("anchor_y", anchorY, decimals: 3)
        box.write(&w)
        w.int("stack_level", stackLevel)
        if let opacity { w.number("opacity", opacity, decimals: 3) }
        if let size { w.number("size", size, decimals: 2) }
        w.endObject()
    }
}

extension ManifestFrame.Box {
    func write(_ json: inout JSONWriter) {
        json.beginObject("box")
        json.number("x", x, decimals: 3); json.number("y", y, decimals: 3)
        json.number("w", w, decimals: 3); json.number("h", h, decimals: 3)
        json.endObject()
    }
}
