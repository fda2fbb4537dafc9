// Rendering module
