import Testing
@testable import POIStore

