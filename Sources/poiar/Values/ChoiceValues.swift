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

// Two options whose default is not a value of their own: they are not given unless typed (a
// script file's delivery is kept; the scene follows the buildings), yet their help shows the
// default in the one style of every other, "(values: …; default: …)".

/// `simulate --delivery`: the rows in time order, or in a phone's sensor batches; nil when the
/// command line gives none.
struct RowDelivery: ExpressibleByArgument {
    let delivery: Delivery?
    static let notGiven = RowDelivery(delivery: nil)
    private init(delivery: Delivery?) { self.delivery = delivery }
    init?(argument: String) {
        guard let delivery = Delivery.named(argument) else { return nil }
        self.delivery = delivery
    }
    static var allValueStrings: [String] { Delivery.names }
    var defaultValueDescription: String { "in-order" }
}

/// `--scene`: the map scene or a plain background; nil when the command line gives none.
struct SceneArgument: ExpressibleByArgument {
    let choice: SceneChoice?
    static let notGiven = SceneArgument(choice: nil)
    private init(choice: SceneChoice?) { self.choice = choice }
    init?(argument: String) {
        guard let choice = SceneChoice(rawValue: argument.lowercased()) else { return nil }
        self.choice = choice
    }
    static var allValueStrings: [String] { SceneChoice.allCases.map(\.rawValue) }
    var defaultValueDescription: String { "map when there are buildings, else plain" }
}
