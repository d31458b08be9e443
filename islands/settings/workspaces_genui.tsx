/** The generative-UI part of a workspace's editor: off, on (the default) or custom settings. */
import { type Signal, useSignal } from "@preact/signals";
import { bootstrap } from "../state.ts";
import { JsonField, LinesField, type RecordDraft, TextField } from "./kit.tsx";
import {
  ChecklistField,
  ChoiceField,
  ColorField,
  NestedErrors,
  OnByDefaultField,
  useNestedDraft,
} from "./workspaces_fields.tsx";

type Mode = "off" | "on" | "custom";

function modeOf(value: unknown): Mode {
  if (value === false) return "off";
  return value && typeof value === "object" ? "custom" : "on";
}

/** Which configured catalogs are offered: all of them (no `catalogIds`), or the ones checked. */
function CatalogChoice({ settings }: { settings: Signal<RecordDraft> }) {
  const catalogs = bootstrap.value?.catalogs ?? [];
  const all = settings.value.catalogIds === undefined;
  return (
    <div class="catalog-choice">
      <div class="field check">
        <label>
          <input
            type="checkbox"
            checked={all}
            onChange={(event) => {
              const next = { ...settings.peek() };
              if (event.currentTarget.checked) delete next.catalogIds;
              else next.catalogIds = [];
              settings.value = next;
            }}
          />{" "}
          Every configured catalog (also ones added later)
        </label>
      </div>
      {all ? null : (
        <ChecklistField
          draft={settings}
          name="catalogIds"
          legend="Configured catalogs"
          keepEmpty
          options={catalogs.map((catalog) => [
            catalog.id,
            catalog.name,
            catalog.errors.length > 0 ? `${catalog.errors.length} errors` : undefined,
          ])}
          empty="No catalogs are configured (Settings → Catalogs)."
        />
      )}
    </div>
  );
}

/** The theme passed into `createSurface`. */
function ThemeFields({ settings }: { settings: Signal<RecordDraft> }) {
  const theme = useNestedDraft(settings, "theme");
  return (
    <fieldset class="group">
      <legend>Theme</legend>
      <NestedErrors prefix="theme">
        <ColorField draft={theme} name="primaryColor" label="Primary color" />
        <TextField draft={theme} name="iconUrl" label="Icon URL" type="url" />
        <TextField draft={theme} name="agentDisplayName" label="Agent display name" />
      </NestedErrors>
    </fieldset>
  );
}

/** Every field of the render tool's settings (`generativeUi` as an object). */
function CustomFields({ draft }: { draft: Signal<RecordDraft> }) {
  const settings = useNestedDraft(draft, "generativeUi", { keepEmpty: true });
  return (
    <NestedErrors prefix="generativeUi">
      <div class="genui-custom">
        <TextField
          draft={settings}
          name="toolName"
          label="Tool name"
          placeholder="render_ui"
          hint="The name the model sees: letters, digits, '_' and '-'."
        />
        <OnByDefaultField draft={settings} name="standard" label="Offer the standard catalog" />
        <CatalogChoice settings={settings} />
        <LinesField
          draft={settings}
          name="allow"
          label="Allow only these components"
          shape="list"
          hint="Component names, one per line, applied to every catalog; empty allows all."
        />
        <LinesField
          draft={settings}
          name="deny"
          label="Never these components"
          shape="list"
        />
        <TextField
          draft={settings}
          name="instructions"
          label="Instructions"
          multiline
          hint="Added to the render tool's instructions in the system prompt."
        />
        <TextField
          draft={settings}
          name="description"
          label="Tool description"
          multiline
          hint="Replaces the render tool's description."
        />
        <JsonField
          draft={settings}
          name="examples"
          label="Examples (JSON)"
          hint='[{"prompt": "…", "input": {compact surface}}]; they replace the built-in example.'
        />
        <OnByDefaultField
          draft={settings}
          name="repair"
          label="Repair small mistakes in the model's UI"
          hint="Otherwise every mistake is sent back to the model."
        />
        <ThemeFields settings={settings} />
      </div>
    </NestedErrors>
  );
}

/** The `generativeUi` field of a workspace draft. */
export function GenerativeUiFields({ draft }: { draft: Signal<RecordDraft> }) {
  const mode = useSignal<Mode>(modeOf(draft.peek().generativeUi));
  const choose = (next: Mode) => {
    mode.value = next;
    const record = { ...draft.peek() };
    if (next === "on") delete record.generativeUi;
    else if (next === "off") record.generativeUi = false;
    else if (!record.generativeUi || typeof record.generativeUi !== "object") {
      record.generativeUi = {};
    }
    draft.value = record as RecordDraft;
  };
  return (
    <div class="genui-fields">
      <ChoiceField
        name="generativeUi"
        legend="Generative UI (the render tool)"
        value={mode.value}
        options={[["off", "Off"], ["on", "On, with every catalog (default)"], [
          "custom",
          "Custom",
        ]]}
        onChange={choose}
      />
      {mode.value === "custom" ? <CustomFields draft={draft} /> : null}
    </div>
  );
}
