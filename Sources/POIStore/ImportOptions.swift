import POIARCore

/// How `pois import` reads sources that do not say everything in poiar's words: open data
/// without OSM tags, CSV files with other column names. Applies to CSV and GeoJSON (the
/// sources whose records name categories themselves); OSM data and Google Places have their
/// own tables (docs/categories.md).
public struct ImportOptions: Equatable, Sendable {
    /// The category of every POI its source leaves without a known one (`--category`): a
    /// city's file of libraries, hospitals or playgrounds.
    public var category: String?
    /// The property (GeoJSON) or column (CSV) whose values name the categories
    /// (`--category-from`), each read through `categoryMap`.
    public var categoryProperty: String?
    /// A source's category values → poiar's category (`--category-map VALUE=CATEGORY`),
    /// matched without regard to case; applies to `category` columns and properties too.
    public var categoryMap: [String: String] = [:]
    /// CSV: poiar's column name → the file's (`--columns lat=Y,lon=X`).
    public var columns: [String: String] = [:]

    public init(category: String? = nil, categoryProperty: String? = nil, categoryMap: [String: String] = [:],
                columns: [String: String] = [:]) {
        self.category = category
        self.categoryProperty = categoryProperty
        self.categoryMap = Dictionary(categoryMap.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.columns = columns
    }

    /// An option the format would ignore is refused, not dropped silently: `--columns` is for
    /// CSV, the category options for CSV and GeoJSON.
    func check(for format: POISourceFormat, file: String) throws {
        if !columns.isEmpty && format != .csv {
            throw InputError(file: file, "--columns names a CSV file's columns, but this source is \(format.rawValue): give it for CSV only")
        }
        if (suppliesCategories || !categoryMap.isEmpty) && format != .csv && format != .geoJSON {
            throw InputError(file: file, "--category, --category-from and --category-map are for CSV and GeoJSON, but this source is \(format.rawValue) (its categories come from its tags or types: docs/categories.md)")
        }
    }

    /// True when a source needs no category of its own (a column or property may be absent).
    var suppliesCategories: Bool { category != nil || categoryProperty != nil }

    /// The categories of one record, the primary first: its declared category values (a CSV
    /// `category` field, a GeoJSON `properties.category`), then those of `categoryProperty`'s
    /// values, then `fromTags` (the OSM tag rules); else `category`. A value is a known
    /// category name, or one `categoryMap` maps to one; the values matching neither are
    /// returned as `unknown`.
    func categories(declared: [String], property: [String], fromTags: [String]) -> (categories: [String], unknown: [String]) {
        var categories: [String] = []
        var unknown: [String] = []
        for value in declared + property {
            let key = value.lowercased()
            if let mapped = categoryMap[key] ?? (POICategory.isKnown(key) ? key : nil) {
                if !categories.contains(mapped) { categories.append(mapped) }
            } else {
                unknown.append(value)
            }
        }
        for c in fromTags where !categories.contains(c) { categories.append(c) }
        if categories.isEmpty, let category { categories = [category] }
        return (categories, unknown)
    }

    /// Category values in one field: `cafe;store` (also `|` or `,`-separated), trimmed, empty
    /// ones left out.
    static func values(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == ";" || $0 == "|" || $0 == "," })
            .map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}

extension ParsedPOIs {
    /// Counts a record skipped for its categories: "unknown category" when it named some
    /// (which are listed), "no known category" when it named none.
    mutating func skipForCategories(unknown: [String]) {
        if unknown.isEmpty { return skip(SkipReason.noCategory) }
        skip(SkipReason.unknownCategory)
        for name in Set(unknown) { unknownCategories[name, default: 0] += 1 }
    }
}
