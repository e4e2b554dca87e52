"""The contract every folder shares: engine drafts with spans (``contract``), the validated records
(``records``) and the answer's text form for training data and serialisation (``answer``). Imports no other
folder of the project."""
