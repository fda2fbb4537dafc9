import Foundation
import POIARCore

/// Reads OpenStreetMap PBF files (`.osm.pbf`, https://wiki.openstreetmap.org/wiki/PBF_Format).
///
/// A PBF file is a sequence of blobs, each a 4-byte big-endian `BlobHeader` length, the
/// `BlobHeader` (protobuf: `type`, `datasize`) and the `Blob` (`raw` or `zlib_data` with
/// `raw_size`). The first blob is an `OSMHeader` (its `required_features` must be ones poiar
/// reads: `OsmSchema-V0.6`, `DenseNodes`); the others are `OSMData` `PrimitiveBlock`s: a string
/// table and groups of nodes (plain or `DenseNodes`), ways and relations, with coordinates in
/// units of `granularity` nanodegrees from `lat_offset`/`lon_offset`. Blobs of other types are
/// ignored, as the format asks.
///
/// Elements become POIs exactly as from OSM XML (`OSMElementCollector`): nodes at the node, ways
/// at their centroid, multipolygon relations at the centroid of their outer rings.
///
/// Every problem is an `InputError` naming the file and the blob (number, from 1, and byte
/// offset of its header length): a truncated file, a header or blob size out of range, a
/// corrupt zlib stream, an unsupported compression or required feature, a string index out of
/// range, a coordinate out of range.
public enum PBFImporter {
    /// Largest `BlobHeader` and `Blob` sizes the format allows (64 KiB, 32 MiB).
    static let maxHeaderSize = 64 * 1024
    static let maxBlobSize = 32 * 1024 * 1024

    /// Features of `OSMHeader.required_features` that this reader understands.
    /// (`HistoricalInformation`: a history file, read as the snapshot of its latest state,
    /// `OSMLatestVersion`.)
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    /// True when `data` starts like a PBF file: a small header length, then a `BlobHeader` whose
    /// first field is the type string `OSMHeader`.
    static func looksLikePBF(_ data: Data) -> Bool {
        let b = [UInt8](data.prefix(15))
        guard b.count == 15 else { return false }
        let length = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        return length > 0 && length <= maxHeaderSize && b[4] == 0x0A && b[5] == 9
            && Array(b[6..<15]) == Array("OSMHeader".utf8)
    }

    /// Parses the PBF file in `data`.
    /// - Parameter file: the name used in error messages.
    public static func parse(_ data: Data, file: String, baseMap: Bool = false) throws -> ParsedPOIs {
        var collector = OSMElementSink(baseMap: baseMap)
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            var blobNumber = 0
            var sawHeader = false
            while offset < bytes.count {
                blobNumber += 1
                let where_ = "blob \(blobNumber) at byte offset \(offset)"
                func fail(_ message: String) -> InputError {
                    InputError(file: file, field: where_, message)
                }
                guard bytes.count - offset >= 4 else {
                    throw fail("truncated OSM PBF: \(bytes.count - offset) stray byte(s) at the end, expected a 4-byte BlobHeader length")
                }
                let headerLength = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                    | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard headerLength > 0, headerLength <= maxHeaderSize else {
                    throw fail("BlobHeader size \(headerLength) is out of range (1…\(maxHeaderSize)): not an OSM PBF file, or a corrupt one")
                }
                let headerStart = offset + 4
                guard bytes.count - headerStart >= headerLength else {
                    throw fail("truncated OSM PBF: the BlobHeader needs \(headerLength) bytes, \(bytes.count - headerStart) left")
                }
                let header: (type: String, dataSize: Int)
                do {
                    header = try parseBlobHeader(UnsafeRawBufferPointer(rebasing: bytes[headerStart..<headerStart + headerLength]))
                } catch {
                    throw fail("corrupt BlobHeader: \(error)")
                }
                guard header.dataSize >= 0, header.dataSize <= maxBlobSize else {
                    throw fail("blob size \(header.dataSize) is out of range (0…\(maxBlobSize))")
                }
                let blobStart = headerStart + headerLength
                guard bytes.count - blobStart >= header.dataSize else {
                    throw fail("truncated OSM PBF: the \(header.type) blob needs \(header.dataSize) bytes, \(bytes.count - blobStart) left")
                }
                let blob = UnsafeRawBufferPointer(rebasing: bytes[blobStart..<blobStart + header.dataSize])
                offset = blobStart + header.dataSize

                if !sawHeader && header.type != "OSMHeader" {
                    throw fail("not an OSM PBF file: the first blob is \"\(header.type)\", expected \"OSMHeader\"")
                }
                guard header.type == "OSMHeader" || header.type == "OSMData" else { continue }
                let content: [UInt8]
                do {
                    content = try blobContent(blob)
                } catch {
                    throw fail("\(error)")
                }
                do {
                    try content.withUnsafeBytes { raw in
                        if header.type == "OSMHeader" {
                            try checkHeaderBlock(raw)
                            sawHeader = true
                        } else {
                            try parsePrimitiveBlock(raw, into: &collector)
                        }
                    }
                } catch let error as ProtoError {
                    throw fail("corrupt \(header.type) block: \(error)")
                }
            }
            if !sawHeader { throw InputError(file: file, "empty OSM PBF file") }
        }
        return collector.finish()
    }

    // MARK: Blobs

    private static func parseBlobHeader(_ raw: UnsafeRawBufferPointer) throws(ProtoError) -> (type: String, dataSize: Int) {
        var reader = ProtoReader(raw)
        var type: String?, dataSize: Int?
        while let (field, wire) = try reader.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): type = String(decoding: try reader.bytes(), as: UTF8.self)
            case (3, .varint): dataSize = Int(truncatingIfNeeded: Int32(truncatingIfNeeded: try reader.varint()))
            default: try reader.skip(wire)
            }
        }
        guard let type else { throw ProtoError("no type") }
        guard let dataSize else { throw ProtoError("no datasize") }
        return (type, dataSize)
    }

    /// The uncompressed bytes of a `Blob`.
    private static func blobContent(_ raw: UnsafeRawBufferPointer) throws -> [UInt8] {
        var reader = ProtoReader(raw)
        var rawData: UnsafeRawBufferPointer?, zlibData: UnsafeRawBufferPointer?, rawSize: Int?
        var other: String?
        do {
            while let (field, wire) = try reader.nextField() {
                switch (field, wire) {
                case (1, .lengthDelimited): rawData = try reader.bytes()
                case (2, .varint): rawSize = Int(truncatingIfNeeded: Int32(truncatingIfNeeded: try reader.varint()))
                case (3, .lengthDelimited): zlibData = try reader.bytes()
                case (4, _): other = "lzma"; try reader.skip(wire)
                case (5, _): other = "bzip2"; try reader.skip(wire)
                case (6, _): other = "lz4"; try reader.skip(wire)
                case (7, _): other = "zstd"; try reader.skip(wire)
                default: try reader.skip(wire)
                }
            }
        } catch {
            throw ProtoError("corrupt Blob: \(error)")
        }
        if let rawData { return [UInt8](rawData) }
        if let zlibData {
            guard let rawSize else { throw ProtoError("zlib blob without raw_size") }
            guard rawSize <= maxBlobSize else { throw ProtoError("raw_size \(rawSize) is larger than \(maxBlobSize)") }
            do {
                return try Decompression.zlib(zlibData, size: rawSize)
            } catch {
                throw ProtoError("\(error)")
            }
        }
        if let other { throw ProtoError("\(other)-compressed blobs are not supported (only raw and zlib); recompress with osmium cat -f pbf,pbf_compression=zlib") }
        throw ProtoError("empty Blob: no data")
    }

    private static func checkHeaderBlock(_ raw: UnsafeRawBufferPointer) throws(ProtoError) {
        var reader = ProtoReader(raw)
        while let (field, wire) = try reader.nextField() {
            if field == 4, wire == .lengthDelimited {
                let feature = String(decoding: try reader.bytes(), as: UTF8.self)
                if !supportedFeatures.contains(feature) {
                    throw ProtoError("required feature \"\(feature)\" is not supported (poiar reads \(supportedFeatures.sorted().joined(separator: ", ")))")
                }
            } else {
                try reader.skip(wire)
            }
        }
    }

    // MARK: Primitive blocks

    private static func parsePrimitiveBlock(_ raw: UnsafeRawBufferPointer,
                                            into collector: inout OSMElementSink) throws(ProtoError) {
        var reader = ProtoReader(raw)
        var strings: [String] = []
        var groups: [UnsafeRawBufferPointer] = []
        var granularity: Int64 = 100, latOffset: Int64 = 0, lonOffset: Int64 = 0
        while let (field, wire) = try reader.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited):
                var table = ProtoReader(try reader.bytes())
                while let (f, w) = try table.nextField() {
                    if f == 1, w == .lengthDelimited {
                        strings.append(String(decoding: try table.bytes(), as: UTF8.self))
                    } else {
                        try table.skip(w)
                    }
                }
            case (2, .lengthDelimited): groups.append(try reader.bytes())
            case (17, .varint): granularity = Int64(Int32(truncatingIfNeeded: try reader.varint()))
            case (19, .varint): latOffset = Int64(bitPattern: try reader.varint())
            case (20, .varint): lonOffset = Int64(bitPattern: try reader.varint())
            default: try reader.skip(wire)
            }
        }
        guard granularity > 0 else { throw ProtoError("granularity \(granularity) must be > 0") }
        let block = BlockContext(strings: strings, granularity: granularity, latOffset: latOffset, lonOffset: lonOffset)
        for group in groups {
            var g = ProtoReader(group)
            while let (field, wire) = try g.nextField() {
                switch (field, wire) {
                case (1, .lengthDelimited): try parseNode(try g.bytes(), block, &collector)
                case (2, .lengthDelimited): try parseDenseNodes(try g.bytes(), block, &collector)
                case (3, .lengthDelimited): try parseWay(try g.bytes(), block, &collector)
                case (4, .lengthDelimited): try parseRelation(try g.bytes(), block, &collector)
                default: try g.skip(wire)
                }
            }
        }
    }

    private struct BlockContext {
        var strings: [String]
        var granularity: Int64, latOffset: Int64, lonOffset: Int64

        func string(_ index: Int64) throws(ProtoError) -> String {
            guard index >= 0, index < strings.count else {
                throw ProtoError("string index \(index) is out of range (the string table has \(strings.count))")
            }
            return strings[Int(index)]
        }

        func coordinate(lat: Int64, lon: Int64, id: Int64) throws(ProtoError) -> GeoCoordinate {
            // Nanodegrees divided (not multiplied by 1e-9), so 7-decimal values come out as written.
            let c = GeoCoordinate(latitude: Double(latOffset &+ granularity &* lat) / 1e9,
                                  longitude: Double(lonOffset &+ granularity &* lon) / 1e9)
            guard c.isValid else { throw ProtoError("node \(id): coordinate \(c.latitude),\(c.longitude) is out of range") }
            return c
        }

        func tags(keys: [UInt64], values: [UInt64], element: String) throws(ProtoError) -> [String: String] {
            guard keys.count == values.count else {
                throw ProtoError("\(element): \(keys.count) keys but \(values.count) values")
            }
            var tags: [String: String] = [:]
            for (k, v) in zip(keys, values) {
                tags[try string(Int64(truncatingIfNeeded: k))] = try string(Int64(truncatingIfNeeded: v))
            }
            return tags
        }
    }

    private static func parseNode(_ raw: UnsafeRawBufferPointer, _ block: BlockContext,
                                  _ collector: inout OSMElementSink) throws(ProtoError) {
        var r = ProtoReader(raw)
        var id: Int64 = 0, lat: Int64?, lon: Int64?, info: (version: Int64?, visible: Bool) = (nil, true)
        var keys: [UInt64] = [], values: [UInt64] = []
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .varint): id = ProtoReader.zigzag(try r.varint())
            case (2, _): try r.repeatedVarints(wire, into: &keys)
            case (3, _): try r.repeatedVarints(wire, into: &values)
            case (4, .lengthDelimited): info = try versionInfo(try r.bytes())
            case (8, .varint): lat = ProtoReader.zigzag(try r.varint())
            case (9, .varint): lon = ProtoReader.zigzag(try r.varint())
            default: try r.skip(wire)
            }
        }
        let tags = try block.tags(keys: keys, values: values, element: "node \(id)")
        guard info.visible else {
            return collector.add(.node(id: id, coordinate: nil, tags: tags), version: info.version, visible: false)
        }
        guard let lat, let lon else { throw ProtoError("node \(id) has no lat/lon") }
        collector.add(.node(id: id, coordinate: try block.coordinate(lat: lat, lon: lon, id: id), tags: tags), version: info.version)
    }

    private static func parseDenseNodes(_ raw: UnsafeRawBufferPointer, _ block: BlockContext,
                                        _ collector: inout OSMElementSink) throws(ProtoError) {
        var r = ProtoReader(raw)
        var ids: [UInt64] = [], lats: [UInt64] = [], lons: [UInt64] = [], keysVals: [UInt64] = []
        var visibility: [UInt64] = [], versions: [UInt64] = []
        while let (field, wire) = try r.nextField() {
            switch field {
            case 1: try r.repeatedVarints(wire, into: &ids)
            case 5 where wire == .lengthDelimited:
                // DenseInfo: `version` (field 1) and `visible` (6, history files only), one per node.
                var info = ProtoReader(try r.bytes())
                while let (f, w) = try info.nextField() {
                    switch f {
                    case 1: try info.repeatedVarints(w, into: &versions)
                    case 6: try info.repeatedVarints(w, into: &visibility)
                    default: try info.skip(w)
                    }
                }
            case 8: try r.repeatedVarints(wire, into: &lats)
            case 9: try r.repeatedVarints(wire, into: &lons)
            case 10: try r.repeatedVarints(wire, into: &keysVals)
            default: try r.skip(wire)
            }
        }
        guard lats.count == ids.count, lons.count == ids.count else {
            throw ProtoError("DenseNodes with \(ids.count) ids, \(lats.count) lats and \(lons.count) lons")
        }
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var kv = 0
        for i in ids.indices {
            id &+= ProtoReader.zigzag(ids[i]); lat &+= ProtoReader.zigzag(lats[i]); lon &+= ProtoReader.zigzag(lons[i])
            var tags: [String: String] = [:]
            if !keysVals.isEmpty {
                while true {
                    guard kv < keysVals.count else { throw ProtoError("DenseNodes keys_vals ends inside node \(id)") }
                    let key = keysVals[kv]; kv += 1
                    if key == 0 { break }
                    guard kv < keysVals.count else { throw ProtoError("DenseNodes keys_vals ends inside node \(id)") }
                    let value = keysVals[kv]; kv += 1
                    tags[try block.string(Int64(truncatingIfNeeded: key))] = try block.string(Int64(truncatingIfNeeded: value))
                }
            }
            let version = i < versions.count ? Int64(Int32(truncatingIfNeeded: versions[i])) : nil
            if i < visibility.count, visibility[i] == 0 {
                collector.add(.node(id: id, coordinate: nil, tags: tags), version: version, visible: false)
            } else {
                collector.add(.node(id: id, coordinate: try block.coordinate(lat: lat, lon: lon, id: id), tags: tags), version: version)
            }
        }
    }

    private static func parseWay(_ raw: UnsafeRawBufferPointer, _ block: BlockContext,
                                 _ collector: inout OSMElementSink) throws(ProtoError) {
        let element = try ElementFields(raw)
        let id = element.id, keys = element.keys, values = element.values, info = element.info
        let refs = element.lists.0, lats = element.lists.1, lons = element.lists.2
        var nodeRefs: [Int64] = []
        nodeRefs.reserveCapacity(refs.count)
        var ref: Int64 = 0
        for delta in refs { ref &+= ProtoReader.zigzag(delta); nodeRefs.append(ref) }
        // Optional inline locations (the LocationsOnWays feature).
        var geometry: [GeoCoordinate]?
        if !lats.isEmpty, lats.count == refs.count, lons.count == refs.count {
            var lat: Int64 = 0, lon: Int64 = 0
            geometry = try zip(lats, lons).map { (dLat, dLon) throws(ProtoError) in
                lat &+= ProtoReader.zigzag(dLat); lon &+= ProtoReader.zigzag(dLon)
                return try block.coordinate(lat: lat, lon: lon, id: id)
            }
        }
        collector.add(.way(id: id, refs: nodeRefs, tags: try block.tags(keys: keys, values: values, element: "way \(id)"),
                           geometry: geometry, center: nil), version: info.version, visible: info.visible)
    }

    private static func parseRelation(_ raw: UnsafeRawBufferPointer, _ block: BlockContext,
                                      _ collector: inout OSMElementSink) throws(ProtoError) {
        let element = try ElementFields(raw)
        let id = element.id, keys = element.keys, values = element.values, info = element.info
        let roles = element.lists.0, memids = element.lists.1, types = element.lists.2
        let tags = try block.tags(keys: keys, values: values, element: "relation \(id)")
        guard info.visible else {
            return collector.add(.relation(id: id, members: [], tags: tags, center: nil), version: info.version, visible: false)
        }
        guard roles.count == memids.count, types.count == memids.count else {
            throw ProtoError("relation \(id): \(memids.count) members but \(roles.count) roles and \(types.count) types")
        }
        var members: [OSMElementCollector.Member] = []
        var ref: Int64 = 0
        for i in memids.indices {
            ref &+= ProtoReader.zigzag(memids[i])
            let type: String
            switch types[i] {
            case 0: type = "node"
            case 1: type = "way"
            case 2: type = "relation"
            default: throw ProtoError("relation \(id): member type \(types[i]) is not node (0), way (1) or relation (2)")
            }
            members.append(.init(type: type, ref: ref, role: try block.string(Int64(truncatingIfNeeded: roles[i]))))
        }
        collector.add(.relation(id: id, members: members, tags: tags, center: nil), version: info.version)
    }

    /// The fields a `Way` and a `Relation` message share: `id` (1), `keys` (2), `vals` (3),
    /// `info` (4), and three packed lists at 8, 9 and 10 (a way's `refs`, `lat`, `lon`; a
    /// relation's `roles_sid`, `memids`, `types`).
    private struct ElementFields {
        var id: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = []
        var lists: ([UInt64], [UInt64], [UInt64]) = ([], [], [])
        var info: (version: Int64?, visible: Bool) = (nil, true)

        init(_ raw: UnsafeRawBufferPointer) throws(ProtoError) {
            var r = ProtoReader(raw)
            while let (field, wire) = try r.nextField() {
                switch field {
                case 1 where wire == .varint: id = Int64(bitPattern: try r.varint())
                case 4 where wire == .lengthDelimited: info = try PBFImporter.versionInfo(try r.bytes())
                case 2: try r.repeatedVarints(wire, into: &keys)
                case 3: try r.repeatedVarints(wire, into: &values)
                case 8: try r.repeatedVarints(wire, into: &lists.0)
                case 9: try r.repeatedVarints(wire, into: &lists.1)
                case 10: try r.repeatedVarints(wire, into: &lists.2)
                default: try r.skip(wire)
                }
            }
        }
    }

    /// An `Info` message's `version` (field 1) and `visible` (field 6; true when absent, as
    /// outside history files).
    private static func versionInfo(_ raw: UnsafeRawBufferPointer) throws(ProtoError) -> (version: Int64?, visible: Bool) {
        var r = ProtoReader(raw)
        var version: Int64?, visible = true
        while let (field, wire) = try r.nextField() {
            switch (field, wire) {
            case (1, .varint): version = Int64(Int32(truncatingIfNeeded: try r.varint()))
            case (6, .varint): visible = try r.varint() != 0
            default: try r.skip(wire)
            }
        }
        return (version, visible)
    }
}

extension PBFImporter: POISourceReader {
    static let format = POISourceFormat("OSM PBF", isOSM: true)
    static let isBinary = true

    /// An `OSMHeader` blob first (`looksLikePBF`), or a `.pbf` name: a `.pbf` file that is not
    /// a PBF is reported as a PBF problem.
    static func recognises(_ head: SourceHead) -> Bool {
        looksLikePBF(head.bytes) || head.lowercasedFile.hasSuffix(".pbf")
    }

    /// Read whole (a plain file mapped, not copied).
    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs {
        try parse(source.readAll(), file: source.file)
    }

    static func readBaseMap(_ source: SourceStream) throws -> [MapFeature]? {
        try parse(source.readAll(), file: source.file, baseMap: true).baseMap
    }
}
