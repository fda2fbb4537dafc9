import Foundation
import POIARCore

/// What `poiar simulate` sets up before its own settings override: the motion — a named
/// script, or a script file, which may give the path and the sensors' settings too — and the
/// path it follows.
public enum SimulationSetup {
    /// The config for `script` (a named script, else a script file's path) along `waypoints`
    /// (`--waypoints`), else the GeoJSON file `pathFile` (`--path`), else the script file's own
    /// waypoints; dated `startUTC` unless the script file says.
    public static func config(script: String, waypoints: [GeoCoordinate]?, pathFile: String?, startUTC: Date) throws -> SimulationConfig {
        // A script file first: it may give the path and the sensors' settings.
        var motionScript: MotionScript?
        if SimulationConfig.Script(rawValue: script) == nil {
            try InputFile.checkRegular(script, what: "the script file")
            guard let data = FileManager.default.contents(atPath: script) else { throw InputError(file: script, "cannot read the script file") }
            motionScript = try MotionScript.parse(data, file: script)
        }
        let points: [GeoCoordinate]
        if let waypoints {
            points = waypoints
        } else if let pathFile {
            points = try GeoJSONPath.read(pathFile)
        } else if let w = motionScript?.waypoints {
            points = w
        } else {
            throw InputError(file: script, field: "waypoints", "missing: give the path in the script or with --path or --waypoints")
        }
        guard let motionScript else { return SimulationConfig(waypoints: points, script: SimulationConfig.Script(rawValue: script)!, startUTC: startUTC) }
        var config = SimulationConfig(waypoints: points, timeline: motionScript.timeline, startUTC: startUTC)
        config.motionName = URL(fileURLWithPath: script).lastPathComponent
        motionScript.apply(to: &config)
        return config
    }

    /// The simulator for `config`; a config it refuses is an error against the script file's
    /// field, else against `pathSource` (the path's file, `--waypoints` or the script).
    public static func simulator(_ config: SimulationConfig, script: String, pathSource: String) throws -> Simulator {
        do { return try Simulator(config: config) } catch let e as SimulationError {
            if let field = e.field { throw InputError(file: script, field: field, e.message) }
            throw InputError(file: pathSource, e.message)
        }
    }
}

extension SimulationSummary {
    /// The command's one line: what was written to `log` (and `also`), how long, how far, and
    /// the bad fixes and out-of-order rows in it.
    public func report(log: String, also: [String]) -> String {
        let written = ["gyro", "accel", "mag", "gps", "frame"].compactMap { n in rows[n].map { "\($0) \(n)" } }.joined(separator: ", ")
        var notes: [String] = []
        if !badFixTimes.isEmpty { notes.append("\(badFixTimes.count) bad GPS fixes") }
        if maxDisorder > 0 { notes.append(String(format: "rows up to %.3f s out of time order across sensors", maxDisorder)) }
        return String(format: "wrote %@ (%.1f s, path %.1f m: %@)%@%@", log, duration, pathLength, written,
                      also.isEmpty ? "" : " and " + also.joined(separator: ", "),
                      notes.isEmpty ? "" : "; " + notes.joined(separator: "; "))
    }
}
