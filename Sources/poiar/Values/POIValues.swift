import ArgumentParser
import POIStore

/// `--category`: one category poiar knows (case and spaces ignored).
struct KnownCategory: CheckedArgument {
    let name: String
    init(checking text: String) throws(RefusedValue) {
        let c = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard POICategory.isKnown(c) else { throw RefusedValue(POICategoryError.unknown(c).description) }
        name = c
    }
}

/// `NAME=VALUE,…` items, e.g. `--columns lat=Y,lon=X`.
func namePairs(_ text: String) throws(RefusedValue) -> [(String, String)] {
    var pairs: [(String, String)] = []
    for item in text.split(separator: ",") {
        let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw RefusedValue("expected NAME=VALUE items separated by commas, got \"\(item)\"")
        }
        pairs.append((parts[0], parts[1]))
    }
    return pairs
}

/// `--category-map VALUE=CATEGORY,…`: a source's values to poiar's categories.
struct CategoryMap: CheckedArgument {
    let map: [String: String]
    init(checking text: String) throws(RefusedValue) {
        var map: [String: String] = [:]
        for (value, name) in try namePairs(text) { map[value] = try KnownCategory(checking: name).name }
        self.map = map
    }
}

/// `--columns NAME=COLUMN,…`: the CSV file's column for each of poiar's.
struct CSVColumnMap: CheckedArgument {
    let map: [String: String]
    init(checking text: String) throws(RefusedValue) {
        var map: [String: String] = [:]
        for (name, column) in try namePairs(text) {
            guard CSVImporter.columns.contains(name.lowercased()) else {
                throw RefusedValue("\"\(name)\" is not one of poiar's CSV columns (\(CSVImporter.columns.joined(separator: ", ")))",
                                   typed: name, among: CSVImporter.columns)
            }
            guard map[name.lowercased()] == nil else { throw RefusedValue("\(name.lowercased()) is given twice") }
            // One file column read as two of poiar's (lat=Y,lon=Y) would put every POI on a diagonal.
            if let other = map.first(where: { $0.value.lowercased() == column.lowercased() }) {
                throw RefusedValue("column \"\(column)\" is given for both \(other.key) and \(name.lowercased()): each of poiar's columns needs its own")
            }
            map[name.lowercased()] = column
        }
        self.map = map
    }
}

/// `pois bench --index cell,rtree,…`: the indexes to time.
struct BenchIndexes: CheckedArgument {
    let indexes: [QueryBenchmark.Index]
    init(checking text: String) throws(RefusedValue) {
        var indexes: [QueryBenchmark.Index] = []
        for name in text.split(separator: ",") {
            guard let index = QueryBenchmark.Index(rawValue: String(name)) else {
                throw RefusedValue("expected cell, cell-cold, rtree or rtree2d, got \"\(name)\"", typed: name,
                                   among: QueryBenchmark.Index.allCases.map(\.rawValue))
            }
            indexes.append(index)
        }
        self.indexes = indexes
    }
    var defaultValueDescription: String { indexes.map(\.rawValue).joined(separator: ",") }
}
