import Foundation

/// "85 m", "1.2 km": distances as a label shows them (cards, maps, the manifest's `detail`).
public func formatDistance(_ metres: Double) -> String {
    if metres < 999.5 { return "\(Int(metres.rounded())) m" }
    if metres < 9_950 { return String(format: "%.1f km", metres / 1000) }
    return "\(Int((metres / 1000).rounded())) km"
}
