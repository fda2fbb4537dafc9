import ArgumentParser
import Frames
import POIStore
import Projection
import Recordings
import Replay
import Simulation

// Options that take one word of a fixed set: argument-parser lists the words in the help
// ("values: …") and, for a word not among them, in the error. Case is ignored.

extension OcclusionMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension CardSecondLine: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension SceneChoice: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension PictureOverlay: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension PoseSource: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension FetchSource: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `--card-size`: near cards larger and far ones smaller, or all the normal size.
enum CardSizing: String, CaseIterable, ExpressibleByArgument {
    case distance, fixed
}

/// `simulate --delivery`: the rows in time order, or in a phone's sensor batches.
struct RowDelivery: ExpressibleByArgument {
    let delivery: Delivery
    init?(argument: String) {
        guard let delivery = Delivery.named(argument) else { return nil }
        self.delivery = delivery
    }
    static var allValueStrings: [String] { Delivery.names }
}
