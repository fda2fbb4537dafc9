// Geodesy module
