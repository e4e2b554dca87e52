"""The batch pipeline: split a batch into messages (``split``), run an engine (``engines``), normalise its drafts
into records (``normalize``), validate them (``validate``) — ``batch.process_batch`` — and the ``airspace-parse``
CLI (``cli``)."""
