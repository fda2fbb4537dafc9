import Foundation
import Geodesy
import GRDB
import POIARCore

extension POIDatabase {
    /// The POIs within `radius` metres (geodesic, WGS84) of `center`, nearest first (ties —
    /// distances equal to 1 µm — by id), each with its distance and initial bearing from `center`.
    ///
    /// How: the boxes around the circle (`GeoBox.covering`, two across ±180°, every
    /// longitude near a pole) become a few Hilbert key ranges (`CellKey.ranges`); each range is
    /// one scan of the `poi_cell` B-tree for each wanted category code (every category in the
    /// database, without a filter). Each entry carries the POI's earth-centred coordinates: an entry
    /// whose chord from the centre is longer than the radius is dropped exactly (a geodesic is
    /// never shorter than its chord); the others get their geodesic distance and azimuth
    /// (`ChordGeodesic`, or Vincenty beyond 50 km) and are kept within the radius. Only the POIs
    /// kept are read from `poi`.
    /// - Parameters:
    ///   - categories: only POIs having one of these among their categories; nil for all (an
    ///     empty list finds nothing).
    ///   - limit: at most this many (the nearest); nil for all.
    ///   - language: prefer the `name:<language>` tag as the name (`POI.localized(to:)`).
    /// - Throws: `InputError` for an invalid centre, a negative or non-finite radius or limit,
    ///   or a database error.
    public func query(near center: GeoCoordinate, radius: Double, categories: [String]? = nil,
                      limit: Int? = nil, language: String? = nil) throws -> [POIHit] {
        guard center.isValid else {
            throw InputError(file: path, field: "near", "invalid position \(center)")
        }
        guard radius.isFinite, radius >= 0 else {
            throw InputError(file: path, field: "radius", "radius must be a finite number ≥ 0 m, got \(radius)")
        }
        if let limit, limit < 0 {
            throw InputError(file: path, field: "limit", "limit must be ≥ 0, got \(limit)")
        }
        if categories?.isEmpty == true || limit == 0 { return [] }

        let ranges = GeoBox.covering(center: center, radius: radius).flatMap { box in
            CellKey.ranges(minLat: box.minLat, maxLat: box.maxLat, minLon: box.minLon, maxLon: box.maxLon)
        }
        let chord = ChordGeodesic(center: center)
        let short = radius <= ChordGeodesic.maxDistance
        // A geodesic is at least as long as its chord; the slack only covers rounding.
        let maxChordSquared = radius * radius * (1 + 1e-9)
        var hits: [POIHit] = try read { db -> [POIHit] in
            let statements = try self.queryStatements(db)
            if try statements.dataVersion.step() { rowCache.validate(dataVersion: statements.dataVersion.int64(0)) }
            statements.dataVersion.reset()
            if rowCache.categoryCodes == nil { rowCache.categoryCodes = try Self.categoryCodes(db) }
            let known = rowCache.categoryCodes!
            let codes = categories.map { $0.compactMap { known[$0] } } ?? known.values.sorted()
            if codes.isEmpty { return [] }
            let scan = statements.scan
            var found: [(rid: Int64, distance: Double, bearing: Double)] = []
            for code in codes {
                for range in ranges {
                    scan.bindRow(code, range.lowerBound, range.upperBound)
                    defer { scan.reset() }
                    while try scan.step() {
                        let x = scan.double(1), y = scan.double(2), z = scan.double(3)
                        let c2 = chord.chordSquared(x, y, z)
                        guard c2 <= maxChordSquared else { continue }
                        if short {
                            let inverse = chord.inverse(x, y, z, chordSquared: c2)
                            if inverse.distance <= radius { found.append((scan.int64(0), inverse.distance, inverse.azimuthDeg)) }
                        } else {
                            found.append((scan.int64(0), .nan, .nan))  // measured below, from the POI's position
                        }
                    }
                }
            }
            if codes.count > 1 {
                // A POI of two wanted categories is found twice (key ranges and boxes are disjoint).
                var seen = Set<Int64>()
                found = found.filter { seen.insert($0.rid).inserted }
            }
            let fetch = statements.fetch
            func read(_ rid: Int64) throws -> POI? {
                if let poi = rowCache[rid] { return poi }
                fetch.bind(1, rid)
                defer { fetch.reset() }
                guard try fetch.step() else { return nil }
                let poi = Self.poi(from: fetch)
                rowCache.insert(poi, rid: rid)
                return poi
            }
            var hits: [POIHit] = []
            if !short {
                for f in found {
                    guard let poi = try read(f.rid) else { continue }
                    let inverse = geodesicInverse(from: center, to: poi.coordinate)
                    if inverse.distance <= radius { hits.append(POIHit(poi: poi, distance: inverse.distance, bearing: inverse.azimuthDeg)) }
                }
                return hits
            }
            found.sort { $0.distance < $1.distance }
            if let limit, found.count > limit {
                // Keep the ties at the cut (to 1 µm): they are ordered by id below.
                let cut = found[limit - 1].distance + 1e-6
                found = Array(found.prefix { $0.distance <= cut })
            }
            hits.reserveCapacity(found.count)
            for f in found {
                guard let poi = try read(f.rid) else { continue }
                hits.append(POIHit(poi: poi, distance: f.distance, bearing: f.bearing))
            }
            return hits
        }
        // Distances equal to a micrometre are ties, ordered by id (rounding, e.g. of sin 180°,
        // must not order two POIs at the same distance).
        hits.sort { a, b in
            let da = (a.distance * 1e6).rounded(), db = (b.distance * 1e6).rounded()
            return da != db ? da < db : a.poi.id < b.poi.id
        }
        if let limit, hits.count > limit { hits.removeSubrange(limit...) }
        if let language {
            for i in hits.indices { hits[i].poi = hits[i].poi.localized(to: language) }
        }
        return hits
    }
}

extension POIDatabase {
    /// The prepared statements of `query`, made once per connection.
    struct QueryStatements {
        var scan: RawStatement
        var fetch: RawStatement
        var dataVersion: RawStatement
    }

    /// The POIs `query` read, by row id, so that the next query around the same place (the
    /// next frame of a replay) does not read and decode them again. At most `capacity`
    /// entries (then it starts afresh); emptied by every write through this object, and when
    /// SQLite's `data_version` says another connection changed the file.
    struct RowCache {
        static let capacity = 65_536
        var enabled = true
        private var pois: [Int64: POI] = [:]
        private var dataVersion: Int64 = -1

        /// Category name → code, as stored.
        var categoryCodes: [String: Int64]?

        mutating func removeAll() { pois.removeAll(keepingCapacity: true); categoryCodes = nil }

        /// Forgets the POIs only (for timing cold reads).
        mutating func removePOIs() { pois.removeAll(keepingCapacity: true) }

        /// Empties the cache if the file changed since `dataVersion` was last seen.
        mutating func validate(dataVersion version: Int64) {
            if version != dataVersion { removeAll(); dataVersion = version }
        }

        subscript(rid: Int64) -> POI? { enabled ? pois[rid] : nil }

        mutating func insert(_ poi: POI, rid: Int64) {
            guard enabled else { return }
            if pois.count >= Self.capacity { pois.removeAll(keepingCapacity: true) }
            pois[rid] = poi
        }
    }
}

extension POI {
    /// The POI with its `name:<language>` tag (e.g. `name:sv`) as its name, when it has one.
    public func localized(to language: String) -> POI {
        guard let name = tags["name:\(language)"]?.trimmingWhitespace(), !name.isEmpty else { return self }
        var copy = self
        copy.name = name
        return copy
    }
}

