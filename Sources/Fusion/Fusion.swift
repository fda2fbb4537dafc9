// Fusion module
