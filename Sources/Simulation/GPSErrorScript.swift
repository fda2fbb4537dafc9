import POIARCore

/// `sensors.gps_errors` of a script file: a `GPSErrorModel`, every field checked and named.
extension ScriptParser {
    func gpsErrors(_ v: JSONValue) throws -> GPSErrorModel {
        let f = "sensors.gps_errors"
        guard let obj = v.object else { throw fail(f, "expected an object of wander_tau, white_noise, multipath, dropouts, stale, speed_noise") }
        try checkKeys(obj, ["wander_tau", "white_noise", "multipath", "dropouts", "stale", "speed_noise"], at: f)
        var m = GPSErrorModel()
        if let x = obj["wander_tau"] { m.wanderSeconds = try number(x, "\(f).wander_tau", in: 0.1...86_400, "seconds within 0.1…86400") }
        if let x = obj["white_noise"] { m.whiteNoise = try number(x, "\(f).white_noise", in: 0...1000, "a standard deviation ≥ 0 in m") }
        if let x = obj["multipath"] { m.multipath = try bursts(x, "\(f).multipath", multipath: true) }
        if let x = obj["dropouts"] { m.dropouts = try bursts(x, "\(f).dropouts", multipath: false) }
        if let x = obj["speed_noise"] { m.speedNoise = try number(x, "\(f).speed_noise", in: 0...100, "a standard deviation ≥ 0 in m/s") }
        if let x = obj["stale"] { m.staleFraction = try number(x, "\(f).stale", in: 0...0.9, "a fraction within 0…0.9") }
        return m
    }

    private func bursts(_ v: JSONValue, _ f: String, multipath: Bool) throws -> GPSErrorModel.Bursts {
        guard let obj = v.object else { throw fail(f, "expected an object") }
        let keys: Set<String> = multipath ? ["per_minute", "seconds", "offset_m", "claimed_m"] : ["per_minute", "seconds"]
        try checkKeys(obj, keys, at: f)
        func range(_ key: String, _ what: String, within limit: ClosedRange<Double>) throws -> ClosedRange<Double> {
            guard let x = obj[key] else { throw fail("\(f).\(key)", "missing: [least, most] \(what)") }
            let r = try numbers(x, "\(f).\(key)", count: 2...2, "[least, most] \(what)")
            guard limit.contains(r[0]), limit.contains(r[1]), r[0] <= r[1] else {
                throw fail("\(f).\(key)", "expected [least, most] \(what) within \(Int(limit.lowerBound))…\(Int(limit.upperBound)), least first")
            }
            return r[0]...r[1]
        }
        guard let rate = obj["per_minute"] else { throw fail("\(f).per_minute", "missing: how many a minute on average") }
        var b = GPSErrorModel.Bursts(perMinute: try number(rate, "\(f).per_minute", in: 0...60, "a rate within 0…60 a minute"),
                                     seconds: try range("seconds", "in seconds", within: 0.1...3600))
        if multipath {
            b.offset = try range("offset_m", "in m", within: 0...10_000)
            b.claimed = try range("claimed_m", "in m", within: 0...10_000)
        }
        return b
    }
}
