import POIARCore

/// The error `body` throws, as an `InputError` (nil if it throws nothing or something else).
public func inputError(_ body: () throws -> Void) -> InputError? {
    do {
        try body()
        return nil
    } catch let error as InputError {
        return error
    } catch {
        return nil
    }
}
