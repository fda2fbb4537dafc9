import Foundation
import POIARCore

/// A command's output files (path, the option naming it) checked against what it reads before
/// any work: the one gate, `OutputPlan` (`replay` and `map` build theirs in the library, where
/// the log's own paths are known). Nil paths are options not given.
func checkOutputs(writes outputs: [(path: String?, option: String)], reads inputs: [(path: String?, what: String)]) throws {
    var plan = OutputPlan()
    for output in outputs { if let path = output.path { plan.writes(path, option: output.option) } }
    for input in inputs { plan.reads(input.path, as: input.what) }
    try plan.check()
}
