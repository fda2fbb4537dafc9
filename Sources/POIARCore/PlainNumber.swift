/// A number as a person types it: 1500, not 1500.0; 0.5 as 0.5. For defaults in the help and
/// for values said back in messages.
public func plainNumber(_ x: Double) -> String {
    x.rounded() == x && abs(x) < 1e15 ? String(Int(x)) : String(x)
}
