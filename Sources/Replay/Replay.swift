// Replay module
