import Foundation
import POIARCore

/// A script file for `poiar simulate --script FILE.json` (format `poiar-sim-script/1`): a
/// timeline of what the walker does, the path and targets it refers to, and optionally the
/// sensors' settings. docs/commands.md#script-files describes the keys; `parse` checks every
/// one and names the field of the first problem.
public struct MotionScript: Sendable {
    public static let formatName = "poiar-sim-script/1"

    /// The timeline, ready for the simulator.
    public var timeline: Timeline
    /// `waypoints`: the path, when the command line gives none.
    public var waypoints: [GeoCoordinate]?
    /// `ground_altitude`: height of the ground above the ellipsoid where the path has none, m.
    public var groundAltitude: Double?
    /// `sensors`: settings that override the simulator's defaults (and are overridden by the
    /// command line).
    public var sensors = SensorSettings()
    public var startUTC: Date?
    public var pois: String?
    public var camera: String?

    /// The sensor settings a script may give; nil (or empty lists): not given.
    public struct SensorSettings: Sendable {
        public var seed: UInt64?
        public var fps: Double?
        public var gyroNoise: Double?
        public var gyroBias: Vector3?
        public var accelNoise: Double?
        public var magNoise: Double?
        public var hardIron: Vector3?
        public var magDisturbances: [SimulationConfig.MagDisturbance]?
        public var osMagCalibration: [SimulationConfig.OSCalibrationStep]?
        public var magUncalibratedOnly: Bool?
        public var gpsNoise: Double?
        public var gpsNoiseVariation: Double?
        public var gpsOutages: [SimulationConfig.TimeRange]?
        public var gyroOutages: [SimulationConfig.TimeRange]?
        public var badGPSFixes: [SimulationConfig.TimeRange]?
        public var gpsErrors: GPSErrorModel?
        public var delivery: Delivery?
        public init() {}
    }

    /// Sets the settings the script gives in `config`.
    public func apply(to config: inout SimulationConfig) {
        let s = sensors
        if let v = s.seed { config.seed = v }
        if let v = s.fps { config.fps = v }
        if let v = s.gyroNoise { config.gyroNoise = v }
        if let v = s.gyroBias { config.gyroBias = v }
        if let v = s.accelNoise { config.accelNoise = v }
        if let v = s.magNoise { config.magNoise = v }
        if let v = s.hardIron { config.hardIron = v }
        if let v = s.magDisturbances { config.magDisturbances = v }
        if let v = s.osMagCalibration { config.osMagCalibration = v }
        if let v = s.magUncalibratedOnly { config.magUncalibratedOnly = v }
        if let v = s.gpsNoise { config.gpsNoise = v }
        if let v = s.gpsNoiseVariation { config.gpsNoiseVariation = v }
        if let v = s.gpsOutages { config.gpsOutages = v }
        if let v = s.gyroOutages { config.gyroOutages = v }
        if let v = s.badGPSFixes { config.badGPSFixes = v }
        if let v = s.gpsErrors { config.gpsErrors = v }
        if let v = s.delivery { config.delivery = v }
        if let v = groundAltitude { config.groundAltitude = v }
        if let v = startUTC { config.startUTC = v }
        if let v = pois { config.pois = v }
        if let v = camera { config.camera = v }
    }

    // MARK: parsing

    /// Parses and checks a script file's bytes; errors are `InputError`s naming `file` and the
    /// field (`timeline[3].look_at`).
    public static func parse(_ data: Data, file: String) throws -> MotionScript {
        // A value tree, not a Decodable struct: a place is a name or coordinates, a walk's end
        // a distance, a place or "end", and every problem is named with the value found.
        guard let root = try JSONInput.decode(JSONValue.self, from: data, file: file).object else {
            throw InputError(file: file, "expected a JSON object")
        }
        var p = ScriptParser(file: file)
        return try p.script(root)
    }
}

/// Reads a script's JSON value tree, checking each field.
struct ScriptParser {
    let file: String
    var targets: [String: GeoCoordinate] = [:]

    init(file: String) { self.file = file }

    func fail(_ field: String, _ message: String) -> InputError { InputError(file: file, field: field, message) }

    func checkKeys(_ obj: [String: JSONValue], _ allowed: Set<String>, at field: String) throws {
        for key in obj.keys.sorted() where !allowed.contains(key) {
            let place = field.isEmpty ? key : "\(field).\(key)"
            throw fail(place, "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    func number(_ v: JSONValue, _ field: String) throws -> Double {
        guard let n = v.number, n.isFinite else { throw fail(field, "expected a number, got \(describe(v))") }
        return n
    }

    func number(_ v: JSONValue, _ field: String, in range: ClosedRange<Double>, _ what: String) throws -> Double {
        let x = try number(v, field)
        guard range.contains(x) else { throw fail(field, "expected \(what), got \(format(x))") }
        return x
    }

    func string(_ v: JSONValue, _ field: String) throws -> String {
        guard let s = v.string else { throw fail(field, "expected a string, got \(describe(v))") }
        return s
    }

    func numbers(_ v: JSONValue, _ field: String, count: ClosedRange<Int>, _ what: String) throws -> [Double] {
        guard let a = v.array, count.contains(a.count) else { throw fail(field, "expected \(what)") }
        return try a.enumerated().map { try number($1, "\(field)[\($0)]") }
    }

    func vector(_ v: JSONValue, _ field: String, _ unit: String) throws -> Vector3 {
        let a = try numbers(v, field, count: 3...3, "[x, y, z] in \(unit)")
        return Vector3(a[0], a[1], a[2])
    }

    func coordinate(_ v: JSONValue, _ field: String) throws -> GeoCoordinate {
        let a = try numbers(v, field, count: 2...3, "[latitude, longitude(, altitude)] in degrees (and m)")
        guard abs(a[0]) <= 90 else { throw fail("\(field)[0]", "latitude must be within ±90°, got \(format(a[0]))") }
        guard abs(a[1]) <= 180 else { throw fail("\(field)[1]", "longitude must be within ±180°, got \(format(a[1]))") }
        return GeoCoordinate(latitude: a[0], longitude: a[1], altitude: a.count > 2 ? a[2] : nil)
    }

    /// A place: [lat, lon] or the name of a target.
    func place(_ v: JSONValue, _ field: String) throws -> GeoCoordinate {
        if let name = v.string {
            guard let c = targets[name] else {
                let known = targets.keys.sorted().joined(separator: ", ")
                throw fail(field, "no target named \"\(name)\" in targets" + (known.isEmpty ? " (there are none)" : " (known: \(known))"))
            }
            return c
        }
        return try coordinate(v, field)
    }

    func timeRanges(_ v: JSONValue, _ field: String) throws -> [SimulationConfig.TimeRange] {
        guard let a = v.array else { throw fail(field, "expected a list of [t0, t1] in seconds") }
        return try a.enumerated().map { i, r in
            let x = try numbers(r, "\(field)[\(i)]", count: 2...2, "[t0, t1] in seconds")
            guard x[0] >= 0, x[1] > x[0] else { throw fail("\(field)[\(i)]", "expected 0 ≤ t0 < t1, got [\(format(x[0])), \(format(x[1]))]") }
            return SimulationConfig.TimeRange(t0: x[0], t1: x[1])
        }
    }

    mutating func script(_ root: [String: JSONValue]) throws -> MotionScript {
        try checkKeys(root, ["format", "waypoints", "ground_altitude", "targets", "defaults", "timeline", "sensors",
                             "start_utc", "pois", "camera", "note"], at: "")
        if let f = root["format"] {
            guard try string(f, "format") == MotionScript.formatName else {
                throw fail("format", "expected \"\(MotionScript.formatName)\", got \(describe(f))")
            }
        }
        var waypoints: [GeoCoordinate]?
        if let w = root["waypoints"] {
            guard let a = w.array, !a.isEmpty else { throw fail("waypoints", "expected a list of [latitude, longitude(, altitude)]") }
            waypoints = try a.enumerated().map { try coordinate($1, "waypoints[\($0)]") }
        }
        if let t = root["targets"] {
            guard let obj = t.object else { throw fail("targets", "expected an object of name: [latitude, longitude]") }
            for name in obj.keys.sorted() { targets[name] = try coordinate(obj[name]!, "targets.\(name)") }
        }
        var defaults = Timeline.Attitude()
        if let d = root["defaults"] {
            guard let obj = d.object else { throw fail("defaults", "expected an object") }
            try checkKeys(obj, ScriptParser.attitudeKeys.subtracting(["look_at", "heading", "heading_offset"]), at: "defaults")
            defaults = try attitude(obj, base: defaults, at: "defaults")
        }
        guard let tl = root["timeline"] else { throw fail("timeline", "missing: a script needs a list of segments") }
        guard let items = tl.array, !items.isEmpty else { throw fail("timeline", "expected a non-empty list of segments") }
        var segments: [Timeline.Segment] = []
        for (i, item) in items.enumerated() {
            let field = "timeline[\(i)]"
            guard let obj = item.object else { throw fail(field, "expected an object") }
            segments.append(try segment(obj, defaults: defaults, at: field))
        }
        var script = MotionScript(timeline: Timeline(segments: segments))
        script.waypoints = waypoints
        if let g = root["ground_altitude"] {
            script.groundAltitude = try number(g, "ground_altitude", in: -11_000...9_000, "a height above the ellipsoid in m")
        }
        if let s = root["sensors"] { script.sensors = try sensors(s) }
        if let s = root["start_utc"] {
            let text = try string(s, "start_utc")
            let f = ISO8601DateFormatter()
            guard let date = f.date(from: text) else { throw fail("start_utc", "expected an ISO 8601 UTC time like 2025-06-14T10:02:11Z, got \"\(text)\"") }
            script.startUTC = date
        }
        if let s = root["pois"] { script.pois = try string(s, "pois") }
        if let s = root["camera"] { script.camera = try string(s, "camera") }
        if let s = root["note"] { _ = try string(s, "note") }
        return script
    }

    static let attitudeKeys: Set<String> = ["look_at", "heading", "heading_offset", "pitch", "roll", "sweep", "pitch_sweep",
                                            "roll_sweep", "transition"]

    func segment(_ obj: [String: JSONValue], defaults: Timeline.Attitude, at field: String) throws -> Timeline.Segment {
        let motionKeys = ["stand", "turn", "walk_to"].filter { obj[$0] != nil }
        guard motionKeys.count == 1 else {
            throw fail(field, motionKeys.isEmpty ? "expected one of stand (s), turn (s) or walk_to (m, [lat, lon] or \"end\")"
                                                 : "give one of \(motionKeys.joined(separator: ", ")), not several")
        }
        try checkKeys(obj, ScriptParser.attitudeKeys.union(["stand", "turn", "walk_to", "speed", "vehicle", "note"]), at: field)
        if let s = obj["note"] { _ = try string(s, "\(field).note") }
        var attitude = try self.attitude(obj, base: defaults, at: field)
        let motion: Timeline.Motion
        switch motionKeys[0] {
        case "stand", "turn":
            let key = motionKeys[0]
            let d = try number(obj[key]!, "\(field).\(key)", in: 0.001...86_400, "a duration in seconds > 0")
            // A turn lasts its transition unless one is given.
            if key == "turn" && obj["transition"] == nil { attitude.transition = d }
            motion = .stand(d)
            if obj["speed"] != nil { throw fail("\(field).speed", "only a walk_to segment has a speed") }
            if obj["vehicle"] != nil { throw fail("\(field).vehicle", "only a walk_to segment can be driven") }
        default:
            let v = obj["walk_to"]!, f = "\(field).walk_to"
            let target: Timeline.WalkTarget
            if let s = v.string {
                target = s == "end" ? .end : .point(try place(v, f))
            } else if v.number != nil {
                target = .distance(try number(v, f, in: 0...1e7, "metres along the path ≥ 0"))
            } else {
                target = .point(try place(v, f))
            }
            let speed = try obj["speed"].map { try number($0, "\(field).speed", in: 0.05...20, "a speed in m/s within 0.05…20") } ?? 1.35
            var vehicle = false
            if let v = obj["vehicle"] {
                guard case .bool(let b) = v else { throw fail("\(field).vehicle", "expected true or false") }
                vehicle = b
            }
            motion = .walk(to: target, speed: speed, vehicle: vehicle)
        }
        return Timeline.Segment(motion: motion, attitude: attitude, field: field)
    }

    func attitude(_ obj: [String: JSONValue], base: Timeline.Attitude, at field: String) throws -> Timeline.Attitude {
        var a = base
        // Where to look is not inherited from defaults: a segment without one looks ahead.
        a.look = .ahead(offsetDeg: 0)
        let lookKeys = ["look_at", "heading", "heading_offset"].filter { obj[$0] != nil }
        if lookKeys.count > 1 { throw fail(field, "give one of \(lookKeys.joined(separator: ", ")), not several") }
        if let v = obj["look_at"] {
            let f = "\(field).look_at"
            if let list = v.array, let first = list.first, first.string != nil || first.array != nil {
                a.look = .points(try list.enumerated().map { try place($1, "\(f)[\($0)]") })
            } else {
                a.look = .points([try place(v, f)])
            }
        }
        if let v = obj["heading"] { a.look = .heading(try number(v, "\(field).heading", in: -360...720, "a heading in degrees")) }
        if let v = obj["heading_offset"] {
            a.look = .ahead(offsetDeg: try number(v, "\(field).heading_offset", in: -360...360, "degrees right of the walking direction within ±360"))
        }
        if let v = obj["pitch"] { a.pitchDeg = try number(v, "\(field).pitch", in: -90...90, "a pitch in degrees within ±90") }
        if let v = obj["roll"] { a.rollDeg = try number(v, "\(field).roll", in: -180...180, "a roll in degrees within ±180") }
        if let v = obj["sweep"] { a.headingSweeps = try sweeps(v, "\(field).sweep") }
        if let v = obj["pitch_sweep"] { a.pitchSweeps = try sweeps(v, "\(field).pitch_sweep") }
        if let v = obj["roll_sweep"] { a.rollSweeps = try sweeps(v, "\(field).roll_sweep") }
        if let v = obj["transition"] { a.transition = try number(v, "\(field).transition", in: 0...600, "seconds within 0…600") }
        return a
    }

    func sweeps(_ v: JSONValue, _ field: String) throws -> [Timeline.Sweep] {
        guard let list = v.array, list.count <= Timeline.maxSweepTerms else {
            throw fail(field, "expected a list of at most \(Timeline.maxSweepTerms) {\"amplitude\": deg, \"period\": s}")
        }
        return try list.enumerated().map { i, item in
            let f = "\(field)[\(i)]"
            guard let obj = item.object else { throw fail(f, "expected {\"amplitude\": deg, \"period\": s}") }
            try checkKeys(obj, ["amplitude", "period", "phase"], at: f)
            guard let amp = obj["amplitude"] else { throw fail("\(f).amplitude", "missing") }
            guard let per = obj["period"] else { throw fail("\(f).period", "missing") }
            return Timeline.Sweep(amplitudeDeg: try number(amp, "\(f).amplitude", in: 0...180, "degrees within 0…180"),
                                  period: try number(per, "\(f).period", in: 0.05...3600, "seconds within 0.05…3600"),
                                  phaseDeg: try obj["phase"].map { try number($0, "\(f).phase", in: -360...360, "degrees within ±360") })
        }
    }

    func sensors(_ v: JSONValue) throws -> MotionScript.SensorSettings {
        guard let obj = v.object else { throw fail("sensors", "expected an object") }
        try checkKeys(obj, ["seed", "fps", "gyro_noise", "gyro_bias", "accel_noise", "mag_noise", "hard_iron", "mag_disturbance",
                            "os_mag_calibration", "mag_uncal_only", "gps_noise", "gps_noise_variation", "gps_outage", "gyro_outage", "gps_bad", "gps_errors", "delivery"], at: "sensors")
        var s = MotionScript.SensorSettings()
        if let x = obj["seed"] {
            let n = try number(x, "sensors.seed", in: 0...9_007_199_254_740_992, "a whole number ≥ 0")
            guard n == n.rounded() else { throw fail("sensors.seed", "expected a whole number ≥ 0, got \(format(n))") }
            s.seed = UInt64(n)
        }
        if let x = obj["fps"] { s.fps = try number(x, "sensors.fps", in: 0...1000, "frames per second within 0…1000") }
        let sigma = "a standard deviation ≥ 0"
        if let x = obj["gyro_noise"] { s.gyroNoise = try number(x, "sensors.gyro_noise", in: 0...10, sigma + " in rad/s") }
        if let x = obj["accel_noise"] { s.accelNoise = try number(x, "sensors.accel_noise", in: 0...100, sigma + " in m/s²") }
        if let x = obj["mag_noise"] { s.magNoise = try number(x, "sensors.mag_noise", in: 0...1000, sigma + " in µT") }
        if let x = obj["gps_noise"] { s.gpsNoise = try number(x, "sensors.gps_noise", in: 0...10_000, "a 68 % radius ≥ 0 in m") }
        if let x = obj["gps_noise_variation"] {
            s.gpsNoiseVariation = try number(x, "sensors.gps_noise_variation", in: 0...0.9, "a fraction within 0…0.9")
        }
        if let x = obj["gyro_bias"] { s.gyroBias = try vector(x, "sensors.gyro_bias", "rad/s") }
        if let x = obj["hard_iron"] { s.hardIron = try vector(x, "sensors.hard_iron", "µT") }
        if let x = obj["mag_disturbance"] {
            guard let a = x.array else { throw fail("sensors.mag_disturbance", "expected a list of [t0, t1, µT]") }
            s.magDisturbances = try a.enumerated().map { i, r in
                let f = "sensors.mag_disturbance[\(i)]"
                let d = try numbers(r, f, count: 3...3, "[t0, t1, µT]")
                guard d[0] >= 0, d[1] > d[0] else { throw fail(f, "expected 0 ≤ t0 < t1") }
                return SimulationConfig.MagDisturbance(t0: d[0], t1: d[1], microtesla: d[2])
            }
        }
        if let x = obj["os_mag_calibration"] {
            guard let a = x.array else { throw fail("sensors.os_mag_calibration", "expected a list of [t, x, y, z] (µT)") }
            var steps: [SimulationConfig.OSCalibrationStep] = []
            for (i, r) in a.enumerated() {
                let f = "sensors.os_mag_calibration[\(i)]"
                let d = try numbers(r, f, count: 4...4, "[t, x, y, z] (µT)")
                guard d[0] >= 0, d[0] > steps.last?.time ?? -1 else { throw fail(f, "expected times ≥ 0, each after the one before") }
                steps.append(SimulationConfig.OSCalibrationStep(time: d[0], estimate: Vector3(d[1], d[2], d[3])))
            }
            s.osMagCalibration = steps
        }
        if let x = obj["mag_uncal_only"] {
            guard case .bool(let b) = x else { throw fail("sensors.mag_uncal_only", "expected true or false") }
            s.magUncalibratedOnly = b
        }
        if let x = obj["gps_outage"] { s.gpsOutages = try timeRanges(x, "sensors.gps_outage") }
        if let x = obj["gyro_outage"] { s.gyroOutages = try timeRanges(x, "sensors.gyro_outage") }
        if let x = obj["gps_bad"] { s.badGPSFixes = try timeRanges(x, "sensors.gps_bad") }
        if let x = obj["gps_errors"] { s.gpsErrors = try gpsErrors(x) }
        if let x = obj["delivery"] { s.delivery = try delivery(x) }
        return s
    }

    func delivery(_ v: JSONValue) throws -> Delivery {
        if let name = v.string {
            guard let d = Delivery.named(name) else {
                throw fail("sensors.delivery", "expected \(Delivery.names.joined(separator: " or ")) or an object of sensor: {batch, latency}, got \"\(name)\"")
            }
            return d
        }
        guard let obj = v.object else { throw fail("sensors.delivery", "expected a name or an object") }
        let sensors = Delivery.Sensor.allCases.map(\.rawValue)
        try checkKeys(obj, Set(sensors), at: "sensors.delivery")
        var d = Delivery.inOrder
        for sensor in Delivery.Sensor.allCases {
            guard let item = obj[sensor.rawValue] else { continue }
            let f = "sensors.delivery.\(sensor.rawValue)"
            guard let o = item.object else { throw fail(f, "expected {\"batch\": samples, \"latency\": s}") }
            try checkKeys(o, ["batch", "latency"], at: f)
            let batch = try o["batch"].map { try number($0, "\(f).batch", in: 1...1000, "a whole number of samples within 1…1000") } ?? 1
            guard batch == batch.rounded() else { throw fail("\(f).batch", "expected a whole number of samples, got \(format(batch))") }
            let latency = try o["latency"].map { try number($0, "\(f).latency", in: 0...Delivery.maxLatency, "seconds within 0…\(format(Delivery.maxLatency))") } ?? 0
            d.batching[sensor] = Delivery.Batching(batch: Int(batch), latency: latency)
        }
        return d
    }
}

private func format(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
}

/// A value as a message names what was found.
private func describe(_ v: JSONValue) -> String {
    switch v {
    case .null: return "null"
    case .string(let s): return "\"\(s)\""
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return "\(i)"
    case .double(let d): return "\(d)"
    case .array: return "a list"
    case .object: return "an object"
    }
}
