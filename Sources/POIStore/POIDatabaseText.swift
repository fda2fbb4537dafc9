import Foundation
import Geodesy
import GeodesyData
import POIARCore

// What the `pois` commands print and do around a database, beside the database itself.

extension POIImport {
    /// `pois import`: the sources imported in turn into the database at `path` (created if
    /// missing; recovered first from an interrupted write), each one's report said through
    /// `notice`. A database this created and filled with nothing is not left behind.
    public static func importFiles(_ sources: [URL], into path: String, options: ImportOptions,
                                   notice: (String) -> Void) throws {
        if let note = try POIDatabase.recoverInterruptedWrite(path: path) { notice(note) }
        let existed = FileManager.default.fileExists(atPath: path)
        var database: POIDatabase?
        var imported = 0
        do {
            database = try POIDatabase(path: path)
            for source in sources {
                notice("\(try importFile(source, into: database!, options: options))")
                if let note = Geoid.system.takeNotice() { notice(note) }
                imported += 1
            }
            try database!.close()
        } catch {
            if !existed && imported == 0 {
                try? database?.close()
                for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            throw error
        }
    }
}

extension POI {
    /// `pois show`: one line per field the POI has, "key: value" with the values aligned.
    public var detailsText: String {
        var lines: [(String, String)] = [("id", id), ("name", name.isEmpty ? "(unnamed)" : name)]
        lines.append(("categories", categories.joined(separator: ", ")))
        var position = String(format: "%.7f, %.7f", coordinate.latitude, coordinate.longitude)
        if let alt = coordinate.altitude { position += String(format: ", %.1f m", alt) }
        lines.append(("position", position))
        if let v = address { lines.append(("address", v)) }
        if let v = phone { lines.append(("phone", v)) }
        if let v = website { lines.append(("website", v)) }
        if let v = openingHours { lines.append(("opening hours", v)) }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { key, value in key + ":" + String(repeating: " ", count: width - key.count + 1) + value }
            .joined(separator: "\n")
    }
}

/// `pois categories --db`: a database's categories with their counts.
public enum CategoryCountsText {
    /// `[{"category", "count", "primary"}, …]`.
    public static func json(_ counts: [(name: String, count: Int, primary: Int)]) -> String {
        let items = counts.map { c -> String in
            var w = JSONWriter()
            w.beginObject()
            w.string("category", c.name)
            w.int("count", c.count)
            w.int("primary", c.primary)
            w.endObject()
            return w.text
        }
        return "[" + items.joined(separator: ",\n ") + "]"
    }

    /// A table, then the total of `pois` POIs and what the counts mean.
    public static func table(_ counts: [(name: String, count: Int, primary: Int)], pois: Int) -> String {
        let width = max(8, counts.map(\.name.count).max() ?? 0)
        var lines = ["category".padding(toLength: width, withPad: " ", startingAt: 0) + "    count  primary"]
        for c in counts {
            lines.append(c.name.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: " %8d %8d", c.count, c.primary))
        }
        lines.append("\(pois) POIs; a POI counts once under each of its categories, \"primary\" under its first")
        return lines.joined(separator: "\n")
    }
}
