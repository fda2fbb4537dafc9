// POIStore module
