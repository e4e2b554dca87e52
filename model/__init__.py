"""airspace.model: the two model engines (Clover block diffusion, the AR baseline) and their training.

One module, one job (each imports only those above it)::

    config      ModelConfig: the one config class (sizes, arch, the answer's fields)
    tokenizer   characters -> ids
    pointers    the answer as pointer slots into the prompt; slots <-> drafts / answer text
    layers      RMSNorm, RoPE, GatedDeltaNet / BlockGatedDeltaNet, GatedAttention, MoEFFN, Layer
    batch       training batches (Batch, padding)
    backbone    Backbone (embeddings, layers, pointer head), Memory, Cache
    reading     prompt reads: length groups, read workers, ReadCache, joining groups
    decoding    DecodeResult and what both decoders share
    clover      CloverLM: training batch + loss, prompt read, block-diffusion decode
    ar          ARLM: training batch + loss, prompt read, greedy decode
    build       build_model(cfg) -> CloverLM | ARLM
    checkpoint  save / load a checkpoint directory (safetensors)
    engine      the engines as pipeline Extractors (load_extractor)
    training    airspace-train

Nothing is imported here, so ``import airspace.model.tokenizer`` does not load torch's model code.
"""
