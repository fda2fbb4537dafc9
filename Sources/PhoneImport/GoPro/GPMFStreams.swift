import Foundation
import POIARCore

/// One sensor stream's samples in one payload: a `DEVC` → `STRM` nest's data item (`ACCL`,
/// `GPS5`, …), scaled by the stream's `SCAL`, with the items that came before it in the nest
/// (`ORIN`, `TSMP`, `GPSF`, …): in GPMF a property applies to the data that follows it in the
/// same nest ("Property Hierarchy" in the gpmf-parser README), and GoPro repeats them in every
/// payload ("sticky" metadata).
public struct GPMFStreamPayload: Sendable {
    public var key: String
    /// The device's `DVNM` (the camera: "GoPro Max", "HERO11 Black", "Camera" on a HERO5).
    public var device: String?
    /// Samples in stored order, each with its elements divided by `SCAL`.
    public var samples: [[Double]]
    /// The latest item of each key before the data item in its `STRM`.
    public var properties: [String: GPMFItem]
    /// The data item's byte in its payload, for messages.
    public var offset: Int
    /// Stored compressed (type `#`), which poiar does not read: `samples` is empty.
    public var compressed = false

    /// `TSMP`: the samples the stream has delivered since recording started, this payload's included.
    public var totalSamples: Int? {
        guard let t = properties["TSMP"], t.type != 0, t.type != GPMFType.complex, GPMFType.size(of: t.type) != nil,
              let v = try? t.samples(file: "", payload: "").first?.first else { return nil }
        return Int(exactly: v.rounded())
    }

    /// A property's text (`ORIN`, `GPSU`, `SIUN`, …), nil when absent or not text.
    public func text(_ key: String) -> String? {
        guard let item = properties[key], [UInt8(ascii: "c"), UInt8(ascii: "u"), UInt8(ascii: "U")].contains(item.type) else { return nil }
        return item.text
    }

    /// A property's first number (`GPSF`, `GPSP`), nil when absent or not a number.
    public func number(_ key: String) -> Double? {
        guard let item = properties[key], let v = try? item.samples(file: "", payload: "").first?.first else { return nil }
        return v
    }

    /// A property's numbers (`MTRX`), in order.
    public func numbers(_ key: String) -> [Double]? {
        guard let item = properties[key], let v = try? item.samples(file: "", payload: "") else { return nil }
        return v.flatMap { $0 }
    }
}

/// The streams of one payload.
public struct GPMFPayloadStreams: Sendable {
    public var streams: [GPMFStreamPayload]
    /// Every device's `DVNM`, in order.
    public var devices: [String]
    /// `MINF` (the camera model, on newer cameras), when a device has it.
    public var model: String?

    /// The streams of `key`, from the first device that has it (a second device with the same
    /// sensor — a drone beside the camera — is counted in `otherDevices`).
    public func streams(_ key: String) -> [GPMFStreamPayload] {
        guard let first = streams.first(where: { $0.key == key }) else { return [] }
        return streams.filter { $0.key == key && $0.device == first.device }
    }

    /// Devices other than the first with a stream of `key`.
    public func otherDevices(_ key: String) -> [String] {
        let all = streams.filter { $0.key == key }.map { $0.device ?? "?" }
        guard let first = all.first else { return [] }
        return Array(Set(all.filter { $0 != first })).sorted()
    }

    /// Reads the streams of `keys` from a payload's items (`DEVC` nests at the top).
    public static func read(_ items: [GPMFItem], keys: Set<String>, file: String, payload: String) throws -> GPMFPayloadStreams {
        var out = GPMFPayloadStreams(streams: [], devices: [], model: nil)
        for devc in items where devc.key == "DEVC" && devc.isNest {
            let device = devc.children.first { $0.key == "DVNM" }?.text
            if let device { out.devices.append(device) }
            if let minf = devc.children.first(where: { $0.key == "MINF" })?.text, !minf.isEmpty { out.model = out.model ?? minf }
            for strm in devc.children where strm.key == "STRM" && strm.isNest {
                var properties: [String: GPMFItem] = [:]
                for item in strm.children {
                    guard keys.contains(item.key) else {
                        if !item.isNest { properties[item.key] = item }
                        continue
                    }
                    out.streams.append(try stream(item, properties: properties, device: device, file: file, payload: payload))
                }
            }
        }
        return out
    }

    static func stream(_ item: GPMFItem, properties: [String: GPMFItem], device: String?, file: String, payload: String) throws -> GPMFStreamPayload {
        var s = GPMFStreamPayload(key: item.key, device: device, samples: [], properties: properties, offset: item.offset)
        if item.type == GPMFType.compressed {
            s.compressed = true
            return s
        }
        let raw = try item.samples(complexType: properties["TYPE"]?.text, file: file, payload: payload)
        guard let scal = properties["SCAL"] else {
            s.samples = raw
            return s
        }
        let scale = GPMFScale(divisors: try scal.samples(file: file, payload: payload).flatMap { $0 })
        // Unscaled integers would pass for readings thousands of times too large.
        if let bad = scale.unusable {
            throw InputError(file: file, "\(payload), byte \(scal.offset): SCAL divisor \(bad.index + 1) of \(item.key) is \(bad.value): its samples cannot be scaled to units (the telemetry is damaged)")
        }
        s.samples = try raw.map { sample in
            guard let scaled = scale.apply(sample) else {
                throw InputError(file: file, "\(payload), byte \(scal.offset): SCAL has \(scale.divisors.count) divisors for \(item.key)'s \(sample.count) elements (one, or one per element)")
            }
            return scaled
        }
        return s
    }
}
