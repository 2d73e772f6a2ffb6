"""mx.nd.contrib: operators of the table under the contrib namespace."""
