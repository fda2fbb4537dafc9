// Every file of this target uses the shared test helpers (temporary folders, running poiar).
@_exported import PoiarTestSupport
