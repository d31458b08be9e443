/** The generative-UI part of a workspace's editor: off, on (the default) or custom settings. */
import type { Signal } from "@preact/signals";
import { plural } from "../../wire/words.ts";
import { bootstrap } from "../state.ts";
import { ChecklistField, SettingsChoiceField } from "./choices.tsx";
import { CheckField, ColorField, JsonField, LinesField, TextField } from "./fields.tsx";
import { NestedErrors, type RecordDraft, useNestedDraft } from "./form.tsx";

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
            catalog.errors.length > 0 ? plural(catalog.errors.length, "error") : undefined,
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
function CustomFields({ settings }: { settings: Signal<RecordDraft> }) {
  return (
    <div class="genui-custom">
      <TextField
        draft={settings}
        name="toolName"
        label="Tool name"
        placeholder="render_ui"
        hint="The name the model sees: letters, digits, '_' and '-'."
      />
      <CheckField
        draft={settings}
        name="standard"
        label="Offer the standard catalog"
        defaultOn
      />
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
      <CheckField
        draft={settings}
        name="repair"
        label="Repair small mistakes in the model's UI"
        defaultOn
        hint="Otherwise every mistake is sent back to the model."
      />
      <ThemeFields settings={settings} />
    </div>
  );
}

/** The `generativeUi` field of a workspace draft: off, on (the default) or custom settings. */
export function GenerativeUiFields({ draft }: { draft: Signal<RecordDraft> }) {
  return (
    <div class="genui-fields">
      <SettingsChoiceField
        draft={draft}
        name="generativeUi"
        legend="Generative UI (the render tool)"
        options={[
          ["off", "Off"],
          ["default", "On, with every catalog (default)"],
          ["custom", "Custom"],
        ]}
      >
        {(settings) => <CustomFields settings={settings} />}
      </SettingsChoiceField>
    </div>
  );
}
