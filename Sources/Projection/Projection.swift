// Projection module
